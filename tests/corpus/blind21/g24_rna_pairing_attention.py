"""RNA secondary structure: sequence transformer + 2D base-pairing head.

The attention maps of the last layer are reused as pair features, so the attention keeps its
score table key-major, (B, H, key j, query i), the layout the pair head's transpose expects.
Sequences are padded to the longest in the batch; true lengths come with the batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeyMajorAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, key_mask):
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        scores = k @ q.transpose(-1, -2) * self.dh ** -0.5               # (B, H, Lk, Lq)
        scores = scores.masked_fill(~key_mask[:, None, :, None], float("-inf"))
        attn = scores.softmax(dim=-2)
        out = (attn.transpose(-1, -2) @ v).transpose(1, 2).reshape(B, L, D)
        return self.proj(out), attn


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = KeyMajorAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, mask):
        a, maps = self.attn(self.ln1(x), mask)
        x = x + a
        return x + self.ff(self.ln2(x)), maps


class RNAPairNet(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, pair_dim=16, max_len=128):
        super().__init__()
        self.emb = nn.Embedding(4, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.pair_in = nn.Linear(2 * dim + heads, pair_dim)
        self.pair_conv = nn.Sequential(nn.Conv2d(pair_dim, pair_dim, 3, padding=1), nn.ReLU(),
                                       nn.Conv2d(pair_dim, 1, 1))

    def forward(self, seq, lengths):
        B, L = seq.shape
        mask = torch.arange(L, device=seq.device)[None] < lengths[:, None]
        x = self.emb(seq) + self.pos(torch.arange(L, device=seq.device))
        for blk in self.blocks:
            x, maps = blk(x, mask)
        pair_mask = mask[:, :, None] & mask[:, None, :]
        pair = torch.cat([x.unsqueeze(2).expand(B, L, L, -1), x.unsqueeze(1).expand(B, L, L, -1),
                          maps.permute(0, 3, 2, 1)], dim=-1)                 # [b, i, j, :]
        pair = self.pair_in(pair) * pair_mask.unsqueeze(-1)
        logits = self.pair_conv(pair.permute(0, 3, 1, 2)).squeeze(1)
        logits = 0.5 * (logits + logits.transpose(1, 2))                       # pairing is symmetric
        return logits.masked_fill(~pair_mask, -1e4)


def build():
    torch.manual_seed(0)
    model = RNAPairNet().eval()
    seq = torch.randint(0, 4, (3, 18))
    lengths = torch.tensor([18, 13, 9])
    return model, (seq, lengths)
