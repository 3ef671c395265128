"""Gated attention-based multiple-instance learning (Ilse et al. 2018) for whole-slide images.

A slide is a bag of patch features from a frozen encoder. Bags have different numbers of
patches, so they are padded to a common size with an instance mask. The attention scores are
(B, N, 1) and are normalised over the instance axis, dim=1.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedAttentionPool(nn.Module):
    def __init__(self, in_dim, hid):
        super().__init__()
        self.attention_V = nn.Sequential(nn.Linear(in_dim, hid), nn.Tanh())
        self.attention_U = nn.Sequential(nn.Linear(in_dim, hid), nn.Sigmoid())
        self.attention_w = nn.Linear(hid, 1)

    def forward(self, h, instance_mask):
        a = self.attention_w(self.attention_V(h) * self.attention_U(h))  # (B, N, 1)
        a = a.masked_fill(~instance_mask.unsqueeze(-1), float("-inf"))
        a = F.softmax(a, dim=1)
        return (a * h).sum(dim=1), a.squeeze(-1)


class ABMIL(nn.Module):
    def __init__(self, feat_dim=64, hid=32, n_classes=2):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(feat_dim, hid), nn.ReLU())
        self.pool = GatedAttentionPool(hid, hid // 2)
        self.classifier = nn.Linear(hid, n_classes)

    def forward(self, patches, instance_mask):
        h = self.fc(patches)
        slide, _ = self.pool(h, instance_mask)
        return self.classifier(slide)


def build():
    torch.manual_seed(0)
    model = ABMIL().eval()
    patches = torch.randn(3, 24, 64)
    mask = torch.zeros(3, 24, dtype=torch.bool)
    for b, n in enumerate([24, 10, 3]):
        mask[b, :n] = True
    return model, (patches, mask)
