"""Human-activity recognition from wearable IMU windows (accelerometer + gyroscope).

Windows of T readings with 6 channels are embedded per time step, given learned position
embeddings, encoded with a transformer and classified from the mean over time.
"""
import torch
import torch.nn as nn


class PositionalEmbedding(nn.Module):
    def __init__(self, max_len, d_model):
        super().__init__()
        self.pos_embedding = nn.Embedding(max_len, d_model)

    def forward(self, x):
        positions = torch.arange(x.size(0), device=x.device).unsqueeze(1)
        return x + self.pos_embedding(positions)


class HARTransformer(nn.Module):
    def __init__(self, channels=6, d_model=32, nhead=4, layers=2, n_activities=6, max_len=64):
        super().__init__()
        self.input_proj = nn.Linear(channels, d_model)
        self.pos = PositionalEmbedding(max_len, d_model)
        enc = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=64, dropout=0.1,
                                         batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(enc, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.classifier = nn.Linear(d_model, n_activities)

    def forward(self, imu):
        x = self.pos(self.input_proj(imu))        # (B, T, d_model)
        x = self.encoder(x)
        return self.classifier(self.norm(x).mean(dim=1))


def build():
    torch.manual_seed(41)
    model = HARTransformer().eval()
    return model, (torch.randn(3, 16, 6),)
