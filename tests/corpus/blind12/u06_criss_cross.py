"""Criss-cross attention module (CCNet, Huang et al., 2019) for semantic segmentation.

Every pixel attends to the pixels of its own row and its own column with a single softmax
over the H + W - 1 candidates. The pixel itself would appear in both the row and the column
set, so it is removed from the column energies with -inf before the joint softmax.
"""
import torch
import torch.nn as nn


class CrissCrossAttention(nn.Module):
    def __init__(self, in_dim):
        super().__init__()
        self.query_conv = nn.Conv2d(in_dim, in_dim // 4, 1)
        self.key_conv = nn.Conv2d(in_dim, in_dim // 4, 1)
        self.value_conv = nn.Conv2d(in_dim, in_dim, 1)
        self.gamma = nn.Parameter(torch.tensor(0.5))

    def forward(self, x):
        b, c, h, w = x.shape
        q = self.query_conv(x)
        k = self.key_conv(x)
        v = self.value_conv(x)

        # column energies: pixel (i, x) against (j, x);  row energies: pixel (y, i) against (y, j)
        energy_col = torch.einsum("bciw,bcjw->biwj", q, k)
        self_in_col = torch.eye(h, dtype=torch.bool, device=x.device)[:, None, :]
        energy_col = energy_col.masked_fill(self_in_col, float("-inf"))
        energy_row = torch.einsum("bchi,bchj->bhij", q, k)

        attn = torch.softmax(torch.cat([energy_col, energy_row], dim=-1), dim=-1)
        attn_col, attn_row = attn.split([h, w], dim=-1)

        out_col = torch.einsum("biwj,bcjw->bciw", attn_col, v)
        out_row = torch.einsum("bhij,bchj->bchi", attn_row, v)
        return self.gamma * (out_col + out_row) + x


class RCCAHead(nn.Module):
    """Recurrent criss-cross head: the module is applied twice so every pixel reaches every other."""

    def __init__(self, in_ch=3, dim=16, n_classes=4, recurrence=2):
        super().__init__()
        self.conv_in = nn.Sequential(nn.Conv2d(in_ch, dim, 3, padding=1), nn.ReLU())
        self.cca = CrissCrossAttention(dim)
        self.recurrence = recurrence
        self.cls = nn.Conv2d(2 * dim, n_classes, 1)

    def forward(self, img):
        feat = self.conv_in(img)
        out = feat
        for _ in range(self.recurrence):
            out = self.cca(out)
        return self.cls(torch.cat([feat, out], dim=1))


def build():
    torch.manual_seed(6)
    model = RCCAHead().eval()
    img = torch.randn(2, 3, 6, 8)
    return model, (img,)
