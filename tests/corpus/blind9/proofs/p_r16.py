from lib import *
FIX = [('softmax(attention_scores, dim=1)', 'softmax(attention_scores, dim=-1)')]
N = "r16_bidirectional_encoder"
m, a, kw = build(N)
am = kw["attention_mask"]
p_seq = pad_probe(N, 0, am == 0, vocab=50, keep=(am == 1))
tr = trunc_probe(N, 2, 3)
assert p_seq > 1e-2
tw, twr = twin_diff(N, FIX)
report(name=N, verdict="buggy", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, harm="padding", pad_perturb_real_token_diff=p_seq, truncation_diff=tr)
