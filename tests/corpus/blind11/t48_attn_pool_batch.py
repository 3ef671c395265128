"""Multiple-instance learning (ABMIL-style): gated attention pooling over the patches of each slide."""
import torch
import torch.nn as nn


class GatedAttentionPool(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.attention_V = nn.Linear(dim, hidden)
        self.attention_U = nn.Linear(dim, hidden)
        self.attention_w = nn.Linear(hidden, 1)

    def forward(self, h, mask):
        """h: (B, N, dim) instance features; mask: (B, N) 1 = real instance"""
        a = self.attention_w(torch.tanh(self.attention_V(h)) * torch.sigmoid(self.attention_U(h))).squeeze(-1)
        a = a.masked_fill(mask == 0, -1e9)
        a = a - a.max(dim=-1, keepdim=True).values
        weights = torch.exp(a)
        weights = weights / weights.sum(dim=0, keepdim=True)
        return torch.einsum("bn,bnd->bd", weights, h), weights


class ABMIL(nn.Module):
    def __init__(self, in_dim=24, dim=32, n_classes=3):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU())
        self.pool = GatedAttentionPool(dim, 16)
        self.classifier = nn.Linear(dim, n_classes)

    def forward(self, patches, mask):
        bag, _ = self.pool(self.fc(patches), mask)
        return self.classifier(bag)


def build():
    torch.manual_seed(0)
    mask = (torch.arange(16)[None] < torch.tensor([16, 11, 6])[:, None]).long()
    patches = torch.randn(3, 16, 24) * mask[..., None]
    return ABMIL().eval(), (patches, mask)
