import torch
import torch.nn as nn


class MaxPoolEncoder(nn.Module):
    def __init__(self, vocab=50, d_model=32, nhead=4, n_layers=2, n_classes=3, pad_idx=1):
        super().__init__()
        self.pad_idx = pad_idx
        self.tok = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.pos = nn.Embedding(16, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.cls = nn.Linear(d_model, n_classes)

    def forward(self, src):
        pad = src.eq(self.pad_idx)
        h = self.tok(src) + self.pos(torch.arange(src.size(1), device=src.device))
        h = self.encoder(h, src_key_padding_mask=pad)
        h = h.masked_fill(pad.unsqueeze(-1), float("-inf"))
        pooled = h.max(dim=1).values
        return self.cls(pooled)


def build():
    torch.manual_seed(0)
    model = MaxPoolEncoder().eval()
    src = torch.tensor([[7, 23, 12, 40, 1, 1], [9, 33, 5, 18, 27, 44], [16, 8, 1, 1, 1, 1]])
    return model, (src,)
