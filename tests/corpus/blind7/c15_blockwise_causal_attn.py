import torch
import torch.nn as nn


def blockwise_causal_attention(q, k, v, block_size):
    B, H, T, d = q.shape
    scale = d ** -0.5
    out = torch.empty_like(q)
    for qs in range(0, T, block_size):
        qb = q[:, :, qs:qs + block_size] * scale
        nq = qb.shape[2]
        q_idx = torch.arange(qs, qs + nq, device=q.device)[:, None]
        m = torch.full((B, H, nq, 1), float("-inf"), dtype=q.dtype, device=q.device)
        l = torch.zeros((B, H, nq, 1), dtype=q.dtype, device=q.device)
        acc = torch.zeros((B, H, nq, d), dtype=q.dtype, device=q.device)
        for ks in range(0, qs + nq, block_size):
            kb = k[:, :, ks:ks + block_size]
            vb = v[:, :, ks:ks + block_size]
            k_idx = torch.arange(ks, ks + kb.shape[2], device=q.device)[None, :]
            s = qb @ kb.transpose(-2, -1)
            s = s.masked_fill(k_idx > q_idx, float("-inf"))
            m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
            p = torch.exp(s - m_new)
            corr = torch.exp(m - m_new)
            l = l * corr + p.sum(dim=-1, keepdim=True)
            acc = acc * corr + p @ vb
            m = m_new
        out[:, :, qs:qs + nq] = acc / l
    return out


class BlockwiseCausalSelfAttention(nn.Module):
    def __init__(self, d=32, heads=4, block_size=5):
        super().__init__()
        self.h = heads
        self.block_size = block_size
        self.norm = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        o = blockwise_causal_attention(q, k, v, self.block_size)
        return x + self.proj(o.transpose(1, 2).reshape(B, T, D))


def build():
    torch.manual_seed(0)
    model = BlockwiseCausalSelfAttention().eval()
    x = torch.randn(2, 12, 32)
    return model, (x,)
