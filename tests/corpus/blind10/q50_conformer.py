import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RelPosMHSA(nn.Module):
    """Self-attention with a learned bias per clipped relative distance (Shaw-style)."""

    def __init__(self, d=32, heads=4, max_rel=6):
        super().__init__()
        self.h, self.max_rel = heads, max_rel
        self.ln = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.rel_k = nn.Embedding(2 * max_rel + 1, d // heads)

    def forward(self, x, pad_mask):
        B, T, D = x.shape
        dh = D // self.h
        q, k, v = self.qkv(self.ln(x)).view(B, T, 3, self.h, dh).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T)
        rel = (pos[None, :] - pos[:, None]).clamp(-self.max_rel, self.max_rel) + self.max_rel  # [Tq, Tk]
        R = self.rel_k(rel)  # [Tq, Tk, dh]
        scores = (q @ k.transpose(-1, -2) + torch.einsum("bhqd,qkd->bhqk", q, R)) / math.sqrt(dh)
        scores = scores.masked_fill(pad_mask[:, None, None, :], -1e4)
        attn = scores.softmax(-1)
        return self.out((attn @ v).transpose(1, 2).reshape(B, T, D))


class ConvModule(nn.Module):
    def __init__(self, d=32, kernel=5):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.pw1 = nn.Conv1d(d, 2 * d, 1)
        self.dw = nn.Conv1d(d, d, kernel, padding=kernel // 2, groups=d)
        self.bn = nn.BatchNorm1d(d)
        self.pw2 = nn.Conv1d(d, d, 1)

    def forward(self, x, pad_mask):
        x = self.ln(x).masked_fill(pad_mask[..., None], 0.0).transpose(1, 2)
        x = F.glu(self.pw1(x), dim=1)
        x = x.masked_fill(pad_mask[:, None, :], 0.0)  # no padded frames inside the depthwise kernel
        x = self.pw2(F.silu(self.bn(self.dw(x))))
        return x.transpose(1, 2)


class ConformerBlock(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        ff = lambda: nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
        self.ff1, self.ff2 = ff(), ff()
        self.mhsa = RelPosMHSA(d)
        self.conv = ConvModule(d)
        self.ln = nn.LayerNorm(d)

    def forward(self, x, pad_mask):
        x = x + 0.5 * self.ff1(x)
        x = x + self.mhsa(x, pad_mask)
        x = x + self.conv(x, pad_mask)
        x = x + 0.5 * self.ff2(x)
        return self.ln(x)


class ConformerCTC(nn.Module):
    def __init__(self, n_mels=10, d=32, n_blocks=2, vocab=20):
        super().__init__()
        self.inp = nn.Linear(n_mels, d)
        self.blocks = nn.ModuleList(ConformerBlock(d) for _ in range(n_blocks))
        self.ctc = nn.Linear(d, vocab)

    def forward(self, feats, feat_lens):
        T = feats.size(1)
        pad_mask = torch.arange(T)[None, :] >= feat_lens[:, None]
        x = self.inp(feats)
        for blk in self.blocks:
            x = blk(x, pad_mask)
        return F.log_softmax(self.ctc(x), dim=-1)


def build():
    torch.manual_seed(0)
    model = ConformerCTC().eval()
    lens = torch.tensor([14, 9])
    feats = torch.randn(2, 14, 10)
    feats[1, 9:] = 0.0
    return model, (feats, lens)
