"""Sentence embedder built from a small grouped-query decoder stack run bidirectionally
(LLM2Vec-style): RMSNorm, SwiGLU, 6 query heads sharing 2 key/value heads through
scaled_dot_product_attention(enable_gqa=True), masked mean pooling."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class GQABlock(nn.Module):
    def __init__(self, d=48, n_q=6, n_kv=2):
        super().__init__()
        self.n_q, self.n_kv, self.dh = n_q, n_kv, d // n_q
        self.q = nn.Linear(d, n_q * self.dh, bias=False)
        self.kv = nn.Linear(d, 2 * n_kv * self.dh, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.n1, self.n2 = RMSNorm(d), RMSNorm(d)
        self.gate_up = nn.Linear(d, 4 * d, bias=False)
        self.down = nn.Linear(2 * d, d, bias=False)

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        h = self.n1(x)
        q = self.q(h).view(B, T, self.n_q, self.dh).transpose(1, 2)
        k, v = self.kv(h).view(B, T, 2, self.n_kv, self.dh).permute(2, 0, 3, 1, 4)
        attn_mask = attention_mask[:, None, None, :].to(q.dtype)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, enable_gqa=True)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        g, u = self.gate_up(self.n2(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(g) * u)


class Embedder(nn.Module):
    def __init__(self, vocab=100, d=48, n_layers=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(GQABlock(d) for _ in range(n_layers))
        self.norm = RMSNorm(d)

    def forward(self, input_ids, attention_mask):
        T = input_ids.size(1)
        x = self.tok(input_ids) + self.pos(torch.arange(T, device=input_ids.device))
        for blk in self.blocks:
            x = blk(x, attention_mask)
        x = self.norm(x)
        m = attention_mask.unsqueeze(-1).to(x.dtype)
        return (x * m).sum(1) / m.sum(1)


def build():
    torch.manual_seed(0)
    model = Embedder().eval()
    ids = torch.randint(1, 100, (3, 10))
    mask = torch.ones(3, 10, dtype=torch.long)
    mask[1, 6:] = 0
    mask[2, 4:] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
