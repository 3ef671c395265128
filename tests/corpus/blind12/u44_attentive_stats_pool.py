"""Speaker-embedding extractor with channel-dependent attentive statistics pooling (ECAPA-TDNN
style). Frame-level features (B, C, T) are pooled into a weighted mean and standard deviation
per channel; padded frames of shorter utterances must not contribute.
"""
import torch
import torch.nn as nn


class AttentiveStatsPool(nn.Module):
    def __init__(self, channels, attention_channels=16):
        super().__init__()
        self.attention = nn.Sequential(
            nn.Conv1d(channels, attention_channels, kernel_size=1), nn.Tanh(),
            nn.Conv1d(attention_channels, channels, kernel_size=1))

    def forward(self, x, mask):
        # x: (B, C, T); mask: (B, 1, T) with 1 for real frames
        e = self.attention(x)
        alpha = torch.softmax(e, dim=2) * mask
        mean = torch.sum(alpha * x, dim=2)
        var = torch.sum(alpha * x ** 2, dim=2) - mean ** 2
        std = torch.sqrt(var.clamp(min=1e-5))
        return torch.cat([mean, std], dim=1)


class SpeakerEncoder(nn.Module):
    def __init__(self, n_mels=20, channels=32, emb_dim=16):
        super().__init__()
        self.frames = nn.Sequential(
            nn.Conv1d(n_mels, channels, 1), nn.ReLU(), nn.BatchNorm1d(channels),
            nn.Conv1d(channels, channels, 1), nn.ReLU(), nn.BatchNorm1d(channels))
        self.pool = AttentiveStatsPool(channels)
        self.bn = nn.BatchNorm1d(2 * channels)
        self.fc = nn.Linear(2 * channels, emb_dim)

    def forward(self, feats, lengths):
        # feats: (B, n_mels, T)
        T = feats.size(-1)
        mask = (torch.arange(T, device=feats.device)[None] < lengths[:, None]).float().unsqueeze(1)
        x = self.frames(feats)
        return self.fc(self.bn(self.pool(x, mask)))


def build():
    torch.manual_seed(44)
    model = SpeakerEncoder()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
    model.eval()
    lengths = torch.tensor([16, 10, 5])
    feats = torch.randn(3, 20, 16)
    return model, (feats, lengths)
