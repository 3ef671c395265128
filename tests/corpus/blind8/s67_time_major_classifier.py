import math
import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_ff):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, dropout=0.1)
        self.linear1 = nn.Linear(d_model, dim_ff)
        self.linear2 = nn.Linear(dim_ff, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(0.1)

    def forward(self, src, src_key_padding_mask):
        src2 = self.self_attn(src, src, src, key_padding_mask=src_key_padding_mask)[0]
        src = self.norm1(src + self.dropout(src2))
        src2 = self.linear2(self.dropout(torch.relu(self.linear1(src))))
        return self.norm2(src + self.dropout(src2))


class SeqFirstClassifier(nn.Module):
    def __init__(self, vocab=50, d_model=32, nhead=4, n_classes=3, pad_idx=0):
        super().__init__()
        self.pad_idx = pad_idx
        self.embedding = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.pos = nn.Parameter(torch.randn(32, 1, d_model) * 0.1)
        self.layers = nn.ModuleList([EncoderLayer(d_model, nhead, 64) for _ in range(2)])
        self.fc = nn.Linear(d_model, n_classes)

    def forward(self, src):
        src_key_padding_mask = (src == self.pad_idx).t()
        x = self.embedding(src) * math.sqrt(32) + self.pos[: src.size(0)]
        for layer in self.layers:
            x = layer(x, src_key_padding_mask)
        keep = (src != self.pad_idx).unsqueeze(-1).float()
        pooled = (x * keep).sum(0) / keep.sum(0)
        return self.fc(pooled)


def build():
    torch.manual_seed(0)
    model = SeqFirstClassifier().eval()
    src = torch.tensor([[4, 9, 31], [17, 2, 8], [22, 0, 19], [6, 0, 44], [13, 0, 0], [0, 0, 0]])
    return model, (src,)
