from lib import *
N = "r42_hub_llama"
m, a, kw = build(N)
am = kw["attention_mask"]
c = causal_probe(N, vocab=80, keep=(am == 1))
p = pad_probe(N, 0, am == 0, vocab=80, keep=(am == 1))
tr = maxdiff(run(N)[0:1, 2:], run(N, lambda m_, a_, kw_: ([a_[0][0:1, 2:]], {"attention_mask": am[0:1, 2:]})))
det = determinism(N)
assert max(c, p, tr, det) < 1e-4
report(name=N, verdict="correct", causal_maxdiff=c, left_pad_perturb_diff=p, unpadded_vs_leftpadded_diff=tr, eval_repeat_diff=det)
