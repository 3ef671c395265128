"""Segment decoder with read-memory slots (RMT style): M memory embeddings are prepended and every
token may read all of them; tokens attend causally among themselves."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.wq, self.wk, self.wv = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.wo = nn.Linear(d, d)

    def forward(self, x, allowed):
        B, L, D = x.shape
        split = lambda t: t.view(B, L, self.heads, -1).transpose(1, 2)
        q, k, v = split(self.wq(x)), split(self.wk(x)), split(self.wv(x))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        return self.wo(y.transpose(1, 2).reshape(B, L, D))


class MemoryDecoder(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, layers=2, n_mem=3):
        super().__init__()
        self.n_mem = n_mem
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(32, d) * 0.02)
        self.attn = nn.ModuleList(MemAttention(d, heads) for _ in range(layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers))
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids, memory):
        M, T = self.n_mem, input_ids.size(1)
        x = torch.cat([memory, self.embed(input_ids) + self.pos[:T]], dim=1)
        L = M + T
        allowed = ~torch.triu(torch.ones(L, L, dtype=torch.bool, device=x.device))
        allowed[:, :M] = True
        for attn, ln1, ln2, mlp in zip(self.attn, self.ln1, self.ln2, self.mlp):
            x = x + attn(ln1(x), allowed)
            x = x + mlp(ln2(x))
        x = self.norm(x)
        return self.lm_head(x[:, M:]), x[:, :M]


def build():
    torch.manual_seed(0)
    model = MemoryDecoder().eval()
    input_ids = torch.randint(0, 64, (2, 10))
    memory = torch.randn(2, 3, 32)
    return model, (input_ids, memory)
