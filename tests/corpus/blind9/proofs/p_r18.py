from lib import *
N = "r18_query_encoder"
FIX = [("key_padding_mask = attention_mask.bool()", "key_padding_mask = attention_mask == 0")]
m, a, kw = build(N)
am = a[1]
p = pad_probe(N, 0, am == 0, vocab=50, keep=(am == 1))
tr = trunc_probe(N, 0, 5, seq_args=(0, 1))
tw, twr = twin_diff(N, FIX, keep=(am == 1))
assert p > 1e-2
report(name=N, verdict="buggy", harm="padding", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, pad_perturb_real_token_diff=p, truncation_diff=tr,
       note="nn.MultiheadAttention key_padding_mask True means ignore; passing the keep-mask hides real tokens and exposes pads")
