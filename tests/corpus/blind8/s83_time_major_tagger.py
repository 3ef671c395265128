import math
import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=50):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1).float()
        div = torch.pow(10000.0, -torch.arange(0, d_model, 2).float() / d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class SeqFirstEncoder(nn.Module):
    def __init__(self, vocab=40, d_model=32, nhead=4, num_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=64, dropout=0.1)
        self.encoder = nn.TransformerEncoder(layer, num_layers, enable_nested_tensor=False)
        self.out = nn.Linear(d_model, 5)

    def forward(self, src):
        key_padding_mask = (src == 0).transpose(0, 1)
        x = self.pos(self.embed(src) * math.sqrt(32))
        x = self.encoder(x, src_key_padding_mask=key_padding_mask)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = SeqFirstEncoder().eval()
    src = torch.tensor([[5, 11, 7], [9, 3, 21], [14, 0, 8], [30, 0, 2], [6, 0, 0], [17, 0, 0]])
    return model, (src,)
