"""Convolutional token mixer for audio frames (depthwise + pointwise with BatchNorm)."""
import torch
import torch.nn as nn


class ConvMixerLayer(nn.Module):
    def __init__(self, dim, kernel_size=5):
        super().__init__()
        self.depthwise = nn.Conv1d(dim, dim, kernel_size, groups=dim, padding=kernel_size // 2)
        self.norm1 = nn.BatchNorm1d(dim, track_running_stats=False)
        self.pointwise = nn.Conv1d(dim, dim, kernel_size=1)
        self.norm2 = nn.BatchNorm1d(dim)
        self.act = nn.GELU()

    def forward(self, x):
        # x: (B, C, T)
        x = x + self.norm1(self.act(self.depthwise(x)))
        return self.norm2(self.act(self.pointwise(x)))


class AudioConvMixer(nn.Module):
    def __init__(self, n_mels=16, dim=32, depth=3, num_classes=6):
        super().__init__()
        self.stem = nn.Conv1d(n_mels, dim, kernel_size=3, padding=1)
        self.layers = nn.Sequential(*[ConvMixerLayer(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, num_classes)

    def forward(self, features):
        # features: (B, T, n_mels)
        x = self.stem(features.transpose(1, 2))
        x = self.layers(x)
        return self.head(x.mean(dim=-1))


def build():
    torch.manual_seed(0)
    model = AudioConvMixer().eval()
    features = torch.randn(3, 12, 16)
    return model, (features,)
