"""Attention-based deep multiple-instance learning (Ilse et al., 2018) for whole-slide images.

A slide is a bag of patch features of variable size; bags are padded to the largest bag and
`instance_mask` marks real patches. The gated attention scores
    a_k = w^T (tanh(V h_k) * sigmoid(U h_k))
are normalised over the instances of the bag and the bag embedding is the weighted sum.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedAttentionPool(nn.Module):
    def __init__(self, dim, hidden=16):
        super().__init__()
        self.V = nn.Linear(dim, hidden)
        self.U = nn.Linear(dim, hidden)
        self.w = nn.Linear(hidden, 1)

    def forward(self, h, instance_mask):
        a = self.w(torch.tanh(self.V(h)) * torch.sigmoid(self.U(h))).squeeze(-1)  # (B, K)
        a = a.masked_fill(~instance_mask, 0.0)
        a = F.softmax(a, dim=1)
        return torch.bmm(a.unsqueeze(1), h).squeeze(1), a


class SlideClassifier(nn.Module):
    def __init__(self, feat_dim=48, dim=32, n_classes=2):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(feat_dim, dim), nn.ReLU(), nn.Dropout(0.25))
        self.pool = GatedAttentionPool(dim)
        self.classifier = nn.Linear(dim, n_classes)

    def forward(self, patches, instance_mask):
        h = self.embed(patches)
        bag, attn = self.pool(h, instance_mask)
        return self.classifier(bag), attn


def build():
    torch.manual_seed(16)
    model = SlideClassifier().eval()
    sizes = torch.tensor([12, 7, 3])
    instance_mask = torch.arange(12)[None] < sizes[:, None]
    patches = torch.randn(3, 12, 48) * instance_mask[..., None]
    return model, (patches, instance_mask)
