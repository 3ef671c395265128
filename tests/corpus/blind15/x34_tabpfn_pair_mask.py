"""TabPFN-style in-context classifier (Hollmann et al., 2023). One "sample" of the batch is
a whole dataset: the first `single_eval_pos` rows are labelled training rows, the rest are
test rows to classify. Rows attend to each other across the dataset (the training split is
the context), but a test row may only read training rows.
"""
import torch
import torch.nn as nn


class ItemAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, allowed):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) / (D // self.h) ** 0.5
        scores = scores.masked_fill(~allowed, float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        return self.proj(torch.matmul(attn, v).transpose(1, 2).reshape(B, N, D))


class PFNLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = ItemAttention(d, heads)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, allowed):
        x = self.ln1(x + self.attn(x, allowed))
        return self.ln2(x + self.ff(x))


class TabPFN(nn.Module):
    def __init__(self, n_features=6, n_classes=3, d=32, heads=4, layers=3):
        super().__init__()
        self.x_encoder = nn.Linear(n_features, d)
        self.y_encoder = nn.Embedding(n_classes, d)
        self.layers = nn.ModuleList(PFNLayer(d, heads) for _ in range(layers))
        self.decoder = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, n_classes))

    def forward(self, X, y_train, single_eval_pos):
        B, N, _ = X.shape
        x = self.x_encoder(X)
        x = torch.cat([x[:, :single_eval_pos] + self.y_encoder(y_train), x[:, single_eval_pos:]], dim=1)
        is_train = torch.arange(N, device=X.device) < single_eval_pos
        allowed = is_train[:, None] & is_train[None, :]
        for layer in self.layers:
            x = layer(x, allowed)
        return self.decoder(x[:, single_eval_pos:])


def build():
    torch.manual_seed(0)
    model = TabPFN().eval()
    X = torch.randn(2, 14, 6)
    y_train = (X[:, :10, 0] > 0).long() + (X[:, :10, 1] > 1).long()
    return model, (X, y_train, 10)
