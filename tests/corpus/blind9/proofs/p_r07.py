from lib import *
N = "r07_pretrained_style_encoder"
m, a, kw = build(N)
am = kw["attention_mask"]
pool = lambda o: o["pooler_output"]
p_seq = pad_probe(N, 0, am == 0, vocab=60, keep=(am == 1))
base = run(N, pick=pool)
p_pool = maxdiff(base, run(N, lambda m_, a_, kw_: ([perturb_like(a_[0], am == 0, vocab=60)], kw_), pick=pool))
def tr(i, L):
    def e(m_, a_, kw_):
        return [a_[0][i:i+1, :L]], {"attention_mask": am[i:i+1, :L], "token_type_ids": kw_["token_type_ids"][i:i+1, :L]}
    return maxdiff(run(N)[i:i+1, :L], run(N, e)), maxdiff(run(N, pick=pool)[i:i+1], run(N, e, pick=pool))
t0, tp0 = tr(0, 6)
t2, tp2 = tr(2, 4)
b = batch_probe(N)
det = determinism(N)
assert max(p_seq, p_pool, t0, tp0, t2, tp2, b, det) < 1e-4
report(name=N, verdict="correct", pad_perturb_seq_diff=p_seq, pad_perturb_pooled_diff=p_pool, truncation_diff=max(t0, t2), truncation_pooled_diff=max(tp0, tp2), batch_diff=b, eval_repeat_diff=det)
