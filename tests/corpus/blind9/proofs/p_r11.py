import torch, torch.nn.functional as F
from lib import *
N = "r11_audio_classifier"
b = batch_probe(N)
det = determinism(N)
m, a, kw = build(N)
at = m.layers[0].self_attn
x = torch.randn(3, 16, 32)
with torch.no_grad():
    f = lambda t: t.view(3, 16, 4, 8).transpose(1, 2)
    r = at.out_proj(F.scaled_dot_product_attention(f(at.q_proj(x)), f(at.k_proj(x)), f(at.v_proj(x))).transpose(1, 2).reshape(3, 16, 32))
    ref = maxdiff(at(x), r)
assert max(b, det, ref) < 1e-5
report(name=N, verdict="correct", batch_diff=b, eval_repeat_diff=det, sdpa_ref_diff=ref,
       note="unpadded fixed-length features; mean pooling over all frames is correct here")
