"""Handwritten text line recognition: a small CNN turns the line image into a column sequence,
a Transformer encoder contextualizes the columns, and a linear CTC head predicts characters."""
import math
import torch
import torch.nn as nn


class SinusoidalPositions(nn.Module):
    def __init__(self, d_model, max_len=256):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(1))  # (max_len, 1, d)

    def forward(self, x):
        # x: (B, W, d)
        return x + self.pe[: x.size(0)]


class LineCNN(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)),
            nn.Conv2d(16, d_model, 3, padding=1), nn.ReLU(),
        )

    def forward(self, img):
        f = self.net(img)              # (B, d, H', W)
        return f.mean(2).transpose(1, 2)  # (B, W, d)


class HTRModel(nn.Module):
    def __init__(self, n_chars=40, d_model=32, nhead=4, layers=2):
        super().__init__()
        self.cnn = LineCNN(d_model)
        self.pos = SinusoidalPositions(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.ctc_head = nn.Linear(d_model, n_chars + 1)

    def forward(self, img):
        x = self.pos(self.cnn(img))
        x = self.encoder(x)
        return self.ctc_head(x).log_softmax(-1)


def build():
    torch.manual_seed(0)
    model = HTRModel().eval()
    img = torch.randn(3, 1, 8, 24)
    return model, (img,)
