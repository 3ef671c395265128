"""Fill-in-the-middle code completion (Bavarian et al., 2022), PSM format.

A document is split into prefix / suffix / middle and rearranged as
<PRE> prefix <SUF> suffix <MID> middle, then modelled left to right by an ordinary causal LM.
Batches are left-padded so every sequence ends at the completion point; padding is excluded
from attention and position ids start at each sequence's first real token."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, PRE, SUF, MID = 0, 1, 2, 3


def psm_layout(prefix, suffix, middle):
    return [PRE] + prefix + [SUF] + suffix + [MID] + middle


def left_pad(seqs):
    T = max(map(len, seqs))
    ids = torch.full((len(seqs), T), PAD)
    for i, s in enumerate(seqs):
        ids[i, T - len(s):] = torch.tensor(s)
    return ids


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

    def forward(self, x, allow):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=allow)
        x = x + self.out(a.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.ln2(x))


class FIMCoder(nn.Module):
    def __init__(self, vocab=120, d=48, h=4, depth=2, ctx=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList(Block(d, h) for _ in range(depth))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        keep = input_ids.ne(PAD)
        position_ids = (keep.long().cumsum(-1) - 1).clamp(min=0)
        T = input_ids.size(1)
        causal = torch.ones(T, T, dtype=torch.bool, device=input_ids.device).tril()
        allow = causal[None] & keep[:, None, :]
        # a left-pad query row would otherwise have no visible key
        allow = allow | torch.eye(T, dtype=torch.bool, device=input_ids.device)[None]
        x = self.tok(input_ids) + self.pos(position_ids)
        for blk in self.blocks:
            x = blk(x, allow[:, None])
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = FIMCoder().eval()
    g = torch.Generator().manual_seed(1)
    r = lambda n: torch.randint(4, 120, (n,), generator=g).tolist()
    seqs = [psm_layout(r(6), r(5), r(4)), psm_layout(r(3), r(4), r(2)), psm_layout(r(5), r(2), r(3))]
    return model, (left_pad(seqs),)
