import torch, torch.nn.functional as F
from lib import *
N = "r67_hybrid_convnet"
b = batch_probe(N)
det = determinism(N)
m, a, kw = build(N)
ln = m.attn_norm
x = torch.randn(2, 32, 6, 6)
with torch.no_grad():
    ln.weight.normal_(); ln.bias.normal_()
    ref_ln = maxdiff(ln(x), F.layer_norm(x.permute(0, 2, 3, 1), (32,), ln.weight, ln.bias, 1e-6).permute(0, 3, 1, 2))
    at = m.attn
    y = at(x)
    qkv = at.qkv(x).flatten(2)
    q, k, v = qkv[:, :32], qkv[:, 32:64], qkv[:, 64:]
    outs = []
    for h in range(4):
        sl = slice(8 * h, 8 * h + 8)
        qh, kh, vh = q[:, sl].transpose(1, 2), k[:, sl].transpose(1, 2), v[:, sl].transpose(1, 2)
        outs.append((torch.softmax(qh @ kh.transpose(1, 2) / 8 ** 0.5, -1) @ vh).transpose(1, 2))
    r = x + at.proj(torch.cat(outs, 1).reshape(2, 32, 6, 6))
    ref_attn = maxdiff(y, r)
assert max(b, det, ref_ln, ref_attn) < 1e-5
report(name=N, verdict="correct", batch_diff=b, eval_repeat_diff=det, channels_first_layernorm_ref_diff=ref_ln, channel_major_attention_loop_ref_diff=ref_attn,
       note="channels_first LayerNorm normalises over dim 1 (channels) by design; attention kept in (B,heads,d,N) layout with transposes")
