import torch, torch.nn.functional as F


def ref_attn(attn, x):
    """Straightforward per-head loop for a timm-style fused-qkv attention module."""
    B, N, C = x.shape
    H = attn.num_heads
    D = C // H
    qkv = attn.qkv(x)
    q, k, v = qkv[..., :C], qkv[..., C:2 * C], qkv[..., 2 * C:]
    outs = []
    for h in range(H):
        qh, kh, vh = q[..., h * D:(h + 1) * D], k[..., h * D:(h + 1) * D], v[..., h * D:(h + 1) * D]
        w = torch.softmax(qh @ kh.transpose(-1, -2) / D ** 0.5, dim=-1)
        outs.append(w @ vh)
    return attn.proj(torch.cat(outs, -1))
