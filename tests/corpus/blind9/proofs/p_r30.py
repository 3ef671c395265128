import torch
from lib import *
FIX = [('self.src_attn(x, m, m, tgt_mask)', 'self.src_attn(x, m, m, src_mask)')]

N = "r30_nmt_transformer"
m, a, kw = build(N)
src, tgt = a[0], a[1]
ps = pad_probe(N, 0, src == 0, vocab=40)
pt = pad_probe(N, 1, tgt == 0, vocab=40, keep=(tgt != 0))
c = causal_probe(N, idx=1, vocab=40)
assert ps > 1e-2
tw, twr = twin_diff(N, FIX)
report(name=N, verdict="buggy", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, harm="padding", src_pad_perturb_decoder_diff=ps, tgt_pad_diff=pt, causal_maxdiff=c)
