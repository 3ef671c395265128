"""Causal LM whose attention is a hand-written flash-style loop: key blocks with an online (running-max) softmax."""
import torch
import torch.nn as nn


def flash_attention(q, k, v, block=4, causal=True):
    """q, k, v: (B, H, T, d). Never materializes the full T x T weights."""
    B, H, T, d = q.shape
    scale = d ** -0.5
    m = torch.full((B, H, T, 1), float("-inf"))
    l = torch.zeros(B, H, T, 1)
    acc = torch.zeros_like(q)
    q_pos = torch.arange(T)[:, None]
    for start in range(0, T, block):
        kb, vb = k[:, :, start : start + block], v[:, :, start : start + block]
        s = (q @ kb.transpose(-1, -2)) * scale
        if causal:
            k_pos = torch.arange(start, start + kb.size(2))[None, :]
            s = s.masked_fill(k_pos > q_pos, float("-inf"))
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        # rows whose keys in this block are all masked keep m_new = -inf; shift by 0 there
        m_safe = torch.where(torch.isinf(m_new), torch.zeros_like(m_new), m_new)
        p = torch.exp(s - m_safe)
        alpha = torch.exp(m - m_safe)
        l = alpha * l + p.sum(dim=-1, keepdim=True)
        acc = alpha * acc + p @ vb
        m = m_new
    return acc / l


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        y = flash_attention(q, k, v)
        x = x + self.proj(y.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.ln2(x))


class FlashLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_len=24):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.ln(self.blocks(self.tok(ids) + self.pos(torch.arange(ids.size(1))))))


def build():
    torch.manual_seed(0)
    return FlashLM().eval(), (torch.randint(0, 50, (2, 14)),)
