import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, heads, dropout=0.1, batch_first=True)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

    def forward(self, x, pad_mask):
        h = self.norm1(x)
        a, _ = self.mha(h, h, h, key_padding_mask=pad_mask, need_weights=False)
        x = x + a
        return x + self.ffn(self.norm2(x))


class TextClassifier(nn.Module):
    def __init__(self, vocab=80, d=32, heads=4, n_classes=3, max_len=20):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Parameter(torch.randn(max_len, d) * 0.1)
        self.layers = nn.ModuleList([EncoderLayer(d, heads, 64) for _ in range(2)])
        self.fc = nn.Linear(d, n_classes)

    def forward(self, tokens, lengths):
        B, T = tokens.shape
        pad_mask = torch.arange(T, device=tokens.device).expand(B, T) >= lengths.unsqueeze(1)
        x = self.emb(tokens) + self.pos[:T]
        for layer in self.layers:
            x = layer(x, pad_mask)
        pooled = x.sum(dim=1) / lengths.unsqueeze(1).float()
        return self.fc(pooled)


def build():
    torch.manual_seed(0)
    model = TextClassifier().eval()
    lengths = torch.tensor([7, 4, 2])
    tokens = torch.randint(1, 80, (3, 7))
    tokens[torch.arange(7)[None] >= lengths[:, None]] = 0
    return model, (tokens, lengths)
