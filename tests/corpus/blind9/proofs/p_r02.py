import torch
from lib import *
FIX = [('torch.triu(torch.ones(attn_shape), diagonal=0)', 'torch.triu(torch.ones(attn_shape), diagonal=1)')]

N = "r02_translation_model"
m, a, kw = build(N)
tgt = a[1]
c = causal_probe(N, idx=1, vocab=40, tpos=[0])
c_later = causal_probe(N, idx=1, vocab=40, tpos=[3])
ps = pad_probe(N, 0, a[0] == 0, vocab=40)
assert c > 1e-2
tw, twr = twin_diff(N, FIX)
report(name=N, verdict="buggy", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, harm="causal", causal_maxdiff_pos0=c, causal_maxdiff_pos3=c_later, src_pad_diff=ps,
       note="row 0 of subsequent mask is fully masked; -1e9 fill gives uniform weights over all target keys incl. future")
