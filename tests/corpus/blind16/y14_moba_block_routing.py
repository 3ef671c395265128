"""Mixture of Block Attention (MoBA, Lu et al. 2025) for a causal LM.

Keys are grouped into blocks of `block_size`. Each query scores the mean-pooled keys of every
*past* block and keeps the top-k of them; its own block is always attended. Gating is a hard
top-k, so the attention itself stays a single softmax over the selected keys.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def moba_mask(q, k, block_size, top_k):
    """Boolean (B, H, T, T) mask, True = attend."""
    B, H, T, d = q.shape
    nb = T // block_size
    centroids = k.view(B, H, nb, block_size, d).mean(dim=3)                  # (B, H, nb, d)
    gate = q @ centroids.transpose(-2, -1)                                  # (B, H, T, nb)
    q_block = torch.arange(T, device=q.device) // block_size
    blk = torch.arange(nb, device=q.device)
    past = blk[None, :] < q_block[:, None]                                  # (T, nb)
    gate = gate.masked_fill(~past, float("-inf"))
    k_eff = min(top_k, nb)
    top = gate.topk(k_eff, dim=-1).indices
    chosen = torch.zeros_like(gate, dtype=torch.bool).scatter(-1, top, True) & past
    chosen = chosen | (blk[None, :] == q_block[:, None])                      # own block always on
    return chosen.repeat_interleave(block_size, dim=-1)


class MoBAAttention(nn.Module):
    def __init__(self, dim, heads, block_size=4, top_k=2):
        super().__init__()
        self.h, self.block_size, self.top_k = heads, block_size, top_k
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        mask = moba_mask(q, k, self.block_size, self.top_k)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.o(y.transpose(1, 2).reshape(B, T, D))


class MoBALM(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList()
        for _ in range(depth):
            self.layers.append(nn.ModuleList([nn.LayerNorm(dim), MoBAAttention(dim, heads), nn.LayerNorm(dim),
                                              nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))]))
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x = self.wte(ids) + self.wpe(torch.arange(ids.size(1), device=ids.device))
        for ln1, attn, ln2, mlp in self.layers:
            x = x + attn(ln1(x))
            x = x + mlp(ln2(x))
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = MoBALM().eval()
    return model, (torch.randint(0, 100, (2, 24)),)
