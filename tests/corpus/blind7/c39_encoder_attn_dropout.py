import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d=32, heads=4, attn_drop=0.1, proj_drop=0.1):
        super().__init__()
        self.h = heads
        self.scale = (d // heads) ** -0.5
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.attn_drop = attn_drop
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x, key_padding_mask):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        attn = attn.softmax(dim=-1)
        attn = F.dropout(attn, p=self.attn_drop)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj_drop(self.proj(x))


class AudioEventEncoder(nn.Module):
    def __init__(self, n_mels=16, d=32, heads=4, depth=2, n_classes=6):
        super().__init__()
        self.inp = nn.Linear(n_mels, d)
        self.pos = nn.Parameter(torch.randn(1, 32, d) * 0.02)
        self.layers = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(d), SelfAttention(d, heads), nn.LayerNorm(d),
                            nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Dropout(0.1), nn.Linear(2 * d, d))])
             for _ in range(depth)]
        )
        self.head = nn.Linear(d, n_classes)

    def forward(self, mels, lengths):
        B, T, _ = mels.shape
        pad = torch.arange(T, device=mels.device)[None, :] >= lengths[:, None]
        x = self.inp(mels) + self.pos[:, :T]
        for n1, attn, n2, ff in self.layers:
            x = x + attn(n1(x), pad)
            x = x + ff(n2(x))
        keep = (~pad).unsqueeze(-1).float()
        pooled = (x * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


def build():
    torch.manual_seed(0)
    model = AudioEventEncoder().eval()
    mels = torch.randn(2, 12, 16)
    lengths = torch.tensor([12, 8])
    return model, (mels, lengths)
