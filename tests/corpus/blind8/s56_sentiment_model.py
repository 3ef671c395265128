import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=0.1)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))

    def forward(self, x, key_padding_mask):
        h = self.norm1(x).transpose(0, 1)
        a, _ = self.attn(h, h, h, key_padding_mask=key_padding_mask)
        x = x + a.transpose(0, 1)
        return x + self.ff(self.norm2(x))


class Model(nn.Module):
    def __init__(self, vocab=40, d_model=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=1)
        self.pos = nn.Embedding(16, d_model)
        self.blocks = nn.ModuleList([Block(d_model), Block(d_model)])
        self.fc = nn.Linear(d_model, 3)

    def forward(self, tokens, key_padding_mask):
        x = self.emb(tokens) + self.pos(torch.arange(tokens.size(1)))
        for b in self.blocks:
            x = b(x, key_padding_mask)
        keep = (~key_padding_mask).unsqueeze(-1).float()
        return self.fc((x * keep).sum(1) / keep.sum(1))


def build():
    torch.manual_seed(0)
    model = Model().eval()
    tokens = torch.tensor([[5, 12, 9, 30, 22, 1, 1], [8, 17, 3, 26, 14, 35, 7], [19, 6, 1, 1, 1, 1, 1]])
    key_padding_mask = tokens.eq(1)
    return model, (tokens, key_padding_mask)
