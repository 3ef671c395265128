"""Streaming hand-gesture recognition from a wrist IMU (3-axis accelerometer + gyroscope).

A causal conv front end, then attention whose heads have different look-back spans (2, 4, 8
frames and unlimited), so some heads track fast wrist flicks and others whole strokes. Every frame
emits a gesture posterior; the recogniser fires online.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

GESTURES = ["none", "swipe_left", "swipe_right", "circle", "tap", "shake"]


class MultiSpanAttention(nn.Module):
    def __init__(self, dim, spans=(2, 4, 8, 0), dropout=0.1):
        super().__init__()
        self.heads, self.dropout = len(spans), dropout
        self.register_buffer("spans", torch.tensor([s if s > 0 else 1 << 30 for s in spans]), persistent=False)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def span_mask(self, T, device):
        idx = torch.arange(T, device=device)
        rel = idx[:, None] - idx[None, :]                                    # query - key
        allowed = (rel >= 0) & (rel < self.spans.view(-1, 1, 1))            # (H, T, T)
        return allowed

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=self.span_mask(T, x.device),
                                           dropout_p=self.dropout if self.training else 0.0)
        return self.proj(o.transpose(1, 2).reshape(B, T, D))


class CausalConv(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.k = k
        self.conv = nn.Conv1d(c_in, c_out, k)

    def forward(self, x):                                                   # (B, C, T)
        return self.conv(F.pad(x, (self.k - 1, 0)))


class GestureRecognizer(nn.Module):
    def __init__(self, dim=32, depth=2):
        super().__init__()
        self.register_buffer("imu_mean", torch.tensor([0.0, 0.0, 9.81, 0.0, 0.0, 0.0]), persistent=False)
        self.register_buffer("imu_std", torch.tensor([3.0, 3.0, 3.0, 1.5, 1.5, 1.5]), persistent=False)
        self.front = nn.Sequential(CausalConv(6, dim, 5), nn.GELU(), CausalConv(dim, dim, 3))
        self.attn = nn.ModuleList([MultiSpanAttention(dim) for _ in range(depth)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)) for _ in range(depth)])
        self.ln = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2 * depth)])
        self.head = nn.Linear(dim, len(GESTURES))

    def forward(self, imu):                                                 # (B, T, 6)
        x = (imu - self.imu_mean) / self.imu_std
        x = self.front(x.transpose(1, 2)).transpose(1, 2)
        for i, (attn, ff) in enumerate(zip(self.attn, self.ff)):
            x = x + attn(self.ln[2 * i](x))
            x = x + ff(self.ln[2 * i + 1](x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = GestureRecognizer().eval()
    imu = torch.randn(2, 24, 6) * torch.tensor([3.0, 3.0, 3.0, 1.5, 1.5, 1.5]) + torch.tensor([0, 0, 9.81, 0, 0, 0])
    return model, (imu,)
