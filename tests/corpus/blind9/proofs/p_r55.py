import torch
from lib import *
from vitref import ref_attn
N = "r55_patch_vit"
b = batch_probe(N)
det = determinism(N)
m, a, kw = build(N)
x = torch.randn(2, 17, 32)
with torch.no_grad():
    errs = []
    for attn, ff in m.transformer.layers:
        h = attn.norm(x)
        qkv = attn.to_qkv(h); C = 32
        q, k, v = qkv[..., :C], qkv[..., C:2*C], qkv[..., 2*C:]
        outs = []
        for hh in range(4):
            sl = slice(8 * hh, 8 * hh + 8)
            outs.append(torch.softmax(q[..., sl] @ k[..., sl].transpose(-1, -2) / 8 ** 0.5, -1) @ v[..., sl])
        errs.append(maxdiff(attn(x), attn.to_out(torch.cat(outs, -1))))
ref = max(errs)
assert max(b, det, ref) < 1e-5
report(name=N, verdict="correct", batch_diff=b, eval_repeat_diff=det, loop_ref_diff=ref)
