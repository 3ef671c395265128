import torch
from lib import *
FIX = [('.permute(2, 0, 1, 3, 4)', '.permute(2, 0, 3, 1, 4)')]
from vitref import ref_attn
N = "r04_patch_transformer"
m, a, kw = build(N)
x = torch.randn(2, 17, 32)
with torch.no_grad():
    y = m.blocks[0].attn(x)
    r = ref_attn(m.blocks[0].attn, x)
ref = maxdiff(y, r)
rel = ((y - r).norm() / r.norm()).item()
b = batch_probe(N)
assert ref > 1e-2
tw, twr = twin_diff(N, FIX)
report(name=N, verdict="buggy", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, harm="axis", loop_ref_diff=ref, loop_ref_rel_err=rel, batch_diff=b,
       note="permute(2,0,1,3,4) leaves q,k,v as (B,N,H,D); softmax runs over heads instead of tokens")
