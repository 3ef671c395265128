import torch
from _util import *
N = "c47_text_cross_attn_proc"
R = Report(N, "bug")
m, a, _ = fresh(N)
p = m.attn2
hid = torch.randn(2, 9, 32); txt = a[1]; mask = a[2]
with torch.no_grad():
    got = p(hid, txt, mask)
    q = p.to_q(hid).view(2, 9, 4, 8).transpose(1, 2)
    k = p.to_k(txt).view(2, 6, 4, 8).transpose(1, 2)
    v = p.to_v(txt).view(2, 6, 4, 8).transpose(1, 2)
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask.bool()[:, None, None, :])
    ref = p.to_out(ref.transpose(1, 2).reshape(2, 9, 32))
    s_got = torch.softmax((q @ k.transpose(-1, -2)) * p.scale, -1)
    s_ref = torch.softmax((q @ k.transpose(-1, -2)) * 8 ** -0.5, -1)
R.harm("cross-attention vs SDPA reference (1/sqrt(head_dim))", md(got, ref))
R.harm("attention probabilities differ (max abs)", md(s_got[0], s_ref[0]))
print("scale used:", p.scale, "expected 1/sqrt(8) =", 8 ** -0.5)
ent = lambda P: -(P * P.clamp_min(1e-12).log()).sum(-1).mean().item()
print("mean attention entropy model vs reference (sample 0):", ent(s_got[0]), ent(s_ref[0]))
base, a, _ = run(N)
def mut(a, k): a[1][1, 3:] = torch.randn(3, 24) * 5
y, _, _ = run(N, mut)
R.inv("padding still respected (masked text does not move output)", md(base, y), 1e-6)
R.done()
