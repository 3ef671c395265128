"""Reformer-style LSH self-attention (Kitaev et al., 2020), one hash round.

Queries and keys are shared. Each vector is hashed with a random rotation into one of
n_buckets buckets; the sequence is sorted by (bucket, position), cut into chunks, and each
chunk attends to itself and to the previous chunk. A token does not attend to itself unless
nothing else is available (score -1e5 instead of -inf, as in the paper). The outputs are
scattered back to the original order with the inverse permutation.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LSHSelfAttention(nn.Module):
    def __init__(self, dim, heads=2, n_buckets=4, chunk=4):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.n_buckets, self.chunk = n_buckets, chunk
        self.to_qk = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.out = nn.Linear(dim, dim)
        self.register_buffer("rotations", torch.randn(heads, self.dh, n_buckets // 2))

    def hash(self, qk):
        # qk: (B, h, T, dh) -> bucket ids (B, h, T)
        rotated = torch.einsum("bhtd,hdr->bhtr", qk, self.rotations)
        return torch.cat([rotated, -rotated], dim=-1).argmax(dim=-1)

    def forward(self, x):
        B, T, D = x.shape
        h, dh, c = self.h, self.dh, self.chunk
        qk = self.to_qk(x).view(B, T, h, dh).transpose(1, 2)
        v = self.to_v(x).view(B, T, h, dh).transpose(1, 2)

        buckets = self.hash(qk)
        pos = torch.arange(T, device=x.device).expand(B, h, T)
        sticker = torch.argsort(buckets * T + pos, dim=-1)   # sorted slot -> token
        undo = torch.argsort(sticker, dim=-1)                # token -> sorted slot

        idx = sticker[..., None].expand(-1, -1, -1, dh)
        sq = qk.gather(2, idx)
        sv = v.gather(2, idx)
        spos = pos.gather(2, sticker)

        n = T // c
        sq = sq.view(B, h, n, c, dh)
        sk = F.normalize(sq, dim=-1)
        sv = sv.view(B, h, n, c, dh)
        spos = spos.view(B, h, n, c)

        def look_back(t):
            return torch.cat([t, t.roll(1, dims=2)], dim=3)

        sk, sv, kpos = look_back(sk), look_back(sv), look_back(spos)
        dots = torch.einsum("bhnid,bhnjd->bhnij", sq, sk) / math.sqrt(dh)
        self_mask = spos[..., :, None] == kpos[..., None, :]
        dots = dots.masked_fill(self_mask, -1e5)
        attn = dots.softmax(dim=-1)
        so = torch.einsum("bhnij,bhnjd->bhnid", attn, sv).reshape(B, h, T, dh)

        out = so.gather(2, undo[..., None].expand(-1, -1, -1, dh))
        return self.out(out.transpose(1, 2).reshape(B, T, D))


class ReformerEncoder(nn.Module):
    def __init__(self, vocab=32, dim=32, max_len=16, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([nn.ModuleList([nn.LayerNorm(dim), LSHSelfAttention(dim),
                                                    nn.LayerNorm(dim), nn.Linear(dim, dim)])
                                     for _ in range(depth)])

    def forward(self, ids):
        x = self.emb(ids) + self.pos.weight[: ids.size(1)]
        for ln1, attn, ln2, ff in self.layers:
            x = x + attn(ln1(x))
            x = x + torch.relu(ff(ln2(x)))
        return x


def build():
    torch.manual_seed(4)
    model = ReformerEncoder().eval()
    ids = torch.randint(0, 32, (2, 16))
    return model, (ids,)
