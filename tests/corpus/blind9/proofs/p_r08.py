from lib import *
FIX = [('extended_attention_mask = extended_attention_mask * torch.finfo(dtype).min', 'extended_attention_mask = (1.0 - extended_attention_mask) * torch.finfo(dtype).min')]
N = "r08_encoder_classifier"
m, a, kw = build(N)
am = kw["attention_mask"]
p_seq = pad_probe(N, 0, am == 0, vocab=50, keep=(am == 1))
tr = trunc_probe(N, 2, 3)
assert p_seq > 1e-2
tw, twr = twin_diff(N, FIX)
report(name=N, verdict="buggy", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, harm="padding", pad_perturb_real_token_diff=p_seq, truncation_diff=tr)
