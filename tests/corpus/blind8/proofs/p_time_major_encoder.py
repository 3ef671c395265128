import torch
from common import *

N = "time_major_encoder"
a, k = default(N)
src, kpm = a
base = run(N)
alone = md(base[:, 0], run(N, [src[:, :1].clone(), kpm[:1].clone()])[:, 0])
a2 = clone(a); a2[0][4:, 1] = torch.randn(2, 32) * 5
pad = md(base[:4, 1], run(N, a2)[:4, 1])
cross = md(base[:, 0], run(N, a2)[:, 0])
m, _, _ = build(N)
at = m.layers[0].self_attn
mha = torch.nn.MultiheadAttention(32, 4).eval()
mha.in_proj_weight.copy_(at.in_proj.weight); mha.in_proj_bias.copy_(at.in_proj.bias)
mha.out_proj.weight.copy_(at.out_proj.weight); mha.out_proj.bias.copy_(at.out_proj.bias)
ref = mha(src, src, src, key_padding_mask=kpm, need_weights=False)[0]
refd = md(at(src, kpm)[:, 0], ref[:, 0])
report(N, alone > 1e-3 and pad > 1e-3 and refd > 1e-3, alone_vs_batched=alone, pad_content_effect=pad,
       other_sample_pad_change_effect=cross, diff_vs_nn_MultiheadAttention=refd)
