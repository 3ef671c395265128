import torch
from common import *

N = "time_major_attention"
a, k = default(N)
x, kpm = a
base = run(N)
lengths = [6, 3, 5]
pad = 0.0
for b, L in enumerate(lengths):
    if L < 6:
        a2 = clone(a); a2[0][L:, b] = torch.randn(6 - L, 24) * 5
        o2 = run(N, a2)
        pad = max(pad, md(base[:L, b], o2[:L, b]))
bat = 0.0
for b in range(3):
    o = run(N, [x[:, b:b + 1].clone(), kpm[b:b + 1].clone()])
    bat = max(bat, md(base[:, b], o[:, 0]))
# reference: torch.nn.MultiheadAttention (batch_first=False) with the same weights
m, _, _ = build(N)
att = m.l1.self_attn
mha = torch.nn.MultiheadAttention(24, 3).eval()
mha.in_proj_weight.copy_(torch.cat([att.q_proj.weight, att.k_proj.weight, att.v_proj.weight]))
mha.in_proj_bias.copy_(torch.cat([att.q_proj.bias, att.k_proj.bias, att.v_proj.bias]))
mha.out_proj.weight.copy_(att.out_proj.weight); mha.out_proj.bias.copy_(att.out_proj.bias)
ref = mha(x, x, x, key_padding_mask=kpm, need_weights=False)[0]
refd = md(att(x, kpm), ref)
report(N, max(pad, bat, refd) < 1e-5, pad_content=pad, batch=bat, ref_mha=refd)
