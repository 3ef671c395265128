"""PatchTST forecaster with reversible instance normalization (RevIN), channel-independent patches."""
import torch
import torch.nn as nn


class RevIN(nn.Module):
    def __init__(self, n_vars, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.affine_weight = nn.Parameter(torch.ones(n_vars))
        self.affine_bias = nn.Parameter(torch.zeros(n_vars))

    def normalize(self, x):  # x: (B, L, C)
        dim2reduce = tuple(range(x.ndim - 1))
        self.mean = x.mean(dim=dim2reduce, keepdim=True).detach()
        self.stdev = torch.sqrt(x.var(dim=dim2reduce, keepdim=True, unbiased=False) + self.eps).detach()
        return (x - self.mean) / self.stdev * self.affine_weight + self.affine_bias

    def denormalize(self, y):
        y = (y - self.affine_bias) / (self.affine_weight + self.eps * self.eps)
        return y * self.stdev + self.mean


class PatchTST(nn.Module):
    def __init__(self, n_vars=3, seq_len=24, pred_len=6, patch_len=4, stride=2, d_model=32, n_heads=4, n_layers=2):
        super().__init__()
        self.patch_len, self.stride = patch_len, stride
        n_patches = (seq_len - patch_len) // stride + 1
        self.revin = RevIN(n_vars)
        self.embed = nn.Linear(patch_len, d_model)
        self.pos = nn.Parameter(torch.randn(n_patches, d_model) * 0.02)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 2 * d_model, dropout=0.2, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.head = nn.Sequential(nn.Flatten(start_dim=-2), nn.Dropout(0.2), nn.Linear(n_patches * d_model, pred_len))

    def forward(self, x):  # (B, L, C)
        B, L, C = x.shape
        x = self.revin.normalize(x)
        patches = x.permute(0, 2, 1).unfold(-1, self.patch_len, self.stride)  # (B, C, N, P)
        z = self.embed(patches) + self.pos
        z = self.encoder(z.reshape(B * C, z.size(2), -1))
        y = self.head(z.reshape(B, C, z.size(1), -1))  # (B, C, pred_len)
        return self.revin.denormalize(y.permute(0, 2, 1))


def build():
    torch.manual_seed(0)
    model = PatchTST().eval()
    t = torch.arange(24, dtype=torch.float32)
    x = torch.stack([torch.sin(t / 3 + p) * a + b for p, a, b in [(0, 1, 0), (1, 3, 5), (2, 0.5, -2)]], -1)
    x = x[None] * torch.tensor([1.0, 2.0, 0.5, 4.0])[:, None, None] + 0.1 * torch.randn(4, 24, 3)
    return model, (x,)
