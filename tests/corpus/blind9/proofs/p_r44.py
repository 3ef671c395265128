import torch
from lib import *
from vitref import ref_attn
N = "r44_image_classifier"
m, a, kw = build(N)
x = torch.randn(2, 17, 32)
with torch.no_grad():
    ref = max(maxdiff(blk.attn(x), ref_attn(blk.attn, x)) for blk in m.blocks)
b = batch_probe(N)
det = determinism(N)
assert max(ref, b, det) < 1e-5
report(name=N, verdict="correct", loop_ref_diff=ref, batch_diff=b, eval_repeat_diff=det)
