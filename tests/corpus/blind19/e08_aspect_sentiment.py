"""Aspect-based sentiment classification (ATAE/IAN flavour on top of a Transformer encoder).

The aspect term's tokens are averaged into an aspect vector that queries the context tokens;
padding is removed both from the aspect average and from the attention over context."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def masked_mean(x, mask):
    m = mask.unsqueeze(-1).to(x.dtype)
    return (x * m).sum(1) / m.sum(1).clamp(min=1.0)


class AspectAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)
        self.wv = nn.Linear(d, d)

    def forward(self, aspect, ctx, ctx_mask):
        q = self.wq(aspect).unsqueeze(1)               # (B, 1, d)
        k, v = self.wk(ctx), self.wv(ctx)               # (B, T, d)
        s = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.size(-1))
        s = s.masked_fill(~ctx_mask.unsqueeze(1), float("-inf"))
        p = s.softmax(-1)
        return torch.bmm(p, v).squeeze(1)


class AspectSentimentModel(nn.Module):
    def __init__(self, vocab=300, d=32, heads=2, n_polarities=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(32, d)
        self.ctx_enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, heads, 64, dropout=0.0, batch_first=True), 1, enable_nested_tensor=False)
        self.aspect_attn = AspectAttention(d)
        self.out = nn.Sequential(nn.Linear(2 * d, d), nn.Tanh(), nn.Linear(d, n_polarities))

    def forward(self, text, text_mask, aspect, aspect_mask):
        x = self.emb(text) + self.pos.weight[: text.size(1)]
        h = self.ctx_enc(x, src_key_padding_mask=~text_mask)
        a = masked_mean(self.emb(aspect), aspect_mask)
        r = self.aspect_attn(a, h, text_mask)
        return self.out(torch.cat([r, a], -1))


def build():
    torch.manual_seed(0)
    model = AspectSentimentModel().eval()
    text = torch.randint(1, 300, (3, 14))
    text_mask = torch.ones(3, 14, dtype=torch.bool)
    text_mask[0, 10:] = False
    text_mask[2, 6:] = False
    aspect = torch.randint(1, 300, (3, 3))
    aspect_mask = torch.tensor([[1, 1, 0], [1, 0, 0], [1, 1, 1]], dtype=torch.bool)
    return model, (text, text_mask, aspect, aspect_mask)
