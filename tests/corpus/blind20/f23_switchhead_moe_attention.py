"""Decoder LM with SwitchHead mixture-of-experts attention (Csordas et al., NeurIPS 2024).

Each head keeps one query and one key projection but has E expert value projections and E expert
output projections. The experts are chosen per token with NON-competitive sigmoid gates (top-k of
sigmoid scores, no softmax over experts): the value of a source token mixes the value experts
selected by that source token, and the output of a destination token mixes the output experts
selected by the destination token. The top-k gate values are scattered into a dense (E,) vector.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwitchHeadAttention(nn.Module):
    def __init__(self, dim, heads=2, dh=16, n_experts=4, k=2):
        super().__init__()
        self.heads, self.dh, self.E, self.k = heads, dh, n_experts, k
        self.q = nn.Linear(dim, heads * dh, bias=False)
        self.key = nn.Linear(dim, heads * dh, bias=False)
        self.w_v = nn.Parameter(torch.randn(heads, n_experts, dim, dh) * dim ** -0.5)
        self.w_o = nn.Parameter(torch.randn(heads, n_experts, dh, dim) * (heads * dh) ** -0.5)
        self.sel_v = nn.Linear(dim, heads * n_experts, bias=False)
        self.sel_o = nn.Linear(dim, heads * n_experts, bias=False)

    def gates(self, sel, x):
        B, T, _ = x.shape
        s = torch.sigmoid(sel(x)).view(B, T, self.heads, self.E)
        top, idx = s.topk(self.k, dim=-1)
        return torch.zeros_like(s).scatter(-1, idx, top)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.heads, self.dh).transpose(1, 2)
        k = self.key(x).view(B, T, self.heads, self.dh).transpose(1, 2)
        g_v, g_o = self.gates(self.sel_v, x), self.gates(self.sel_o, x)
        v = torch.einsum("btc,hecd,bthe->bhtd", x, self.w_v, g_v)
        ctx = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return torch.einsum("bhtd,hedc,bthe->btc", ctx, self.w_o, g_o)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = SwitchHeadAttention(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class SwitchHeadLM(nn.Module):
    def __init__(self, vocab=160, dim=32, depth=2, max_len=64):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim) for _ in range(depth))
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = SwitchHeadLM().eval()
    return model, (torch.randint(0, 160, (2, 16)),)
