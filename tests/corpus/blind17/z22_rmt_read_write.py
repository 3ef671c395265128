"""Recurrent Memory Transformer for language modelling with separate read and write memory.

Each segment is laid out as [read memory | segment tokens | write memory]. Segment tokens are
causal among themselves and see all read-memory tokens; write-memory tokens see everything in
the segment and become the read memory of the next segment (Bulatov et al. 2022, decoder
variant).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rmt_mask(M, S, device=None):
    """(M + S + M)^2 boolean mask, True = may attend."""
    n = 2 * M + S
    allow = torch.zeros(n, n, dtype=torch.bool, device=device)
    allow[:M, :M] = True                                            # read <-> read
    allow[M:M + S, :M] = True                                       # tokens see read memory
    allow[M:M + S, M:M + S] = torch.ones(S, S, dtype=torch.bool, device=device).tril()
    allow[M + S:, :] = True                                         # write memory sees all
    return allow


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        B, N, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(B, N, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.proj(y.transpose(1, 2).reshape(B, N, D))
        return x + self.mlp(self.norm2(x))


class RMTDecoder(nn.Module):
    def __init__(self, vocab=256, d=32, h=4, depth=2, num_mem=3, seg_len=6):
        super().__init__()
        self.M, self.S = num_mem, seg_len
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(2 * num_mem + seg_len, d)
        self.init_mem = nn.Parameter(torch.randn(num_mem, d) * 0.1)
        self.write_tokens = nn.Parameter(torch.randn(num_mem, d) * 0.1)
        self.blocks = nn.ModuleList([Block(d, h) for _ in range(depth)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        B, L = ids.shape
        M, S = self.M, self.S
        mask = rmt_mask(M, S, ids.device)
        read = self.init_mem.expand(B, M, -1)
        logits = []
        for s in range(0, L, S):
            x = torch.cat([read, self.tok(ids[:, s:s + S]), self.write_tokens.expand(B, M, -1)], 1)
            x = x + self.pos.weight
            for blk in self.blocks:
                x = blk(x, mask)
            logits.append(self.head(self.ln(x[:, M:M + S])))
            read = x[:, M + S:]
        return torch.cat(logits, 1)


def build():
    torch.manual_seed(0)
    model = RMTDecoder().eval()
    ids = torch.randint(0, 256, (2, 18))
    return model, (ids,)
