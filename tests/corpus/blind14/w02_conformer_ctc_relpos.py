"""Conformer block with clipped relative-position bias, depthwise conv module and CTC head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RelPosMHSA(nn.Module):
    def __init__(self, d, heads, max_rel=8):
        super().__init__()
        self.h, self.dk, self.max_rel = heads, d // heads, max_rel
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.rel_bias = nn.Embedding(2 * max_rel + 1, heads)

    def forward(self, x, pad_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T, device=x.device)
        rel = (pos[None, :] - pos[:, None]).clamp(-self.max_rel, self.max_rel) + self.max_rel
        bias = self.rel_bias(rel).permute(2, 0, 1)  # (H, Tq, Tk)
        scores = q @ k.transpose(-2, -1) / self.dk ** 0.5 + bias
        scores = scores.masked_fill(pad_mask[:, None, None, :], float("-inf"))
        ctx = scores.softmax(dim=-1) @ v
        return self.proj(ctx.transpose(1, 2).reshape(B, T, D))


class ConvModule(nn.Module):
    def __init__(self, d, kernel=7):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.pw1 = nn.Conv1d(d, 2 * d, 1)
        self.dw = nn.Conv1d(d, d, kernel, padding=kernel // 2, groups=d)
        self.bn = nn.BatchNorm1d(d)
        self.pw2 = nn.Conv1d(d, d, 1)

    def forward(self, x, pad_mask):
        h = self.norm(x).transpose(1, 2)  # (B, D, T)
        h = F.glu(self.pw1(h), dim=1)
        h = h.masked_fill(pad_mask[:, None, :], 0.0)
        h = F.silu(self.bn(self.dw(h)))
        return self.pw2(h).transpose(1, 2)


class ConformerCTC(nn.Module):
    def __init__(self, n_mels=24, d=32, heads=4, vocab=31):
        super().__init__()
        self.inp = nn.Linear(n_mels, d)
        self.ff1 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
        self.attn_norm = nn.LayerNorm(d)
        self.attn = RelPosMHSA(d, heads)
        self.conv = ConvModule(d)
        self.ff2 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, feats, lengths):
        pad_mask = torch.arange(feats.size(1), device=feats.device)[None] >= lengths[:, None]
        x = self.inp(feats)
        x = x + 0.5 * self.ff1(x)
        x = x + self.attn(self.attn_norm(x), pad_mask)
        x = x + self.conv(x, pad_mask)
        x = self.norm(x + 0.5 * self.ff2(x))
        return F.log_softmax(self.head(x), dim=-1)


def build():
    torch.manual_seed(0)
    model = ConformerCTC().eval()
    with torch.no_grad():
        model.conv.bn.running_mean.normal_(0, 0.1)
        model.conv.bn.running_var.uniform_(0.5, 1.5)
    lengths = torch.tensor([18, 11, 7])
    feats = torch.randn(3, 18, 24)
    return model, (feats, lengths)
