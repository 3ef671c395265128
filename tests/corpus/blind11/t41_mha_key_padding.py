"""Transformer encoder for event sequences (clinical codes) built on nn.MultiheadAttention, attention-pooled."""
import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, x, key_padding_mask):
        h = self.norm1(x)
        x = x + self.self_attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return x + self.ff(self.norm2(x))


class EventEncoder(nn.Module):
    def __init__(self, n_codes=80, dim=32, heads=4, layers=2, max_len=24, n_out=2):
        super().__init__()
        self.code_emb = nn.Embedding(n_codes, dim, padding_idx=0)
        self.time_proj = nn.Linear(1, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads) for _ in range(layers))
        self.pool_score = nn.Linear(dim, 1)
        self.out = nn.Linear(dim, n_out)

    def forward(self, codes, times, attention_mask):
        x = self.code_emb(codes) + self.time_proj(times[..., None])
        key_padding_mask = attention_mask.bool()
        for layer in self.layers:
            x = layer(x, key_padding_mask)
        w = self.pool_score(x).squeeze(-1).masked_fill(attention_mask == 0, float("-inf")).softmax(-1)
        return self.out(torch.einsum("bt,btd->bd", w, x))


def build():
    torch.manual_seed(0)
    lens = torch.tensor([9, 6, 4])
    attention_mask = (torch.arange(11)[None] < lens[:, None]).long()
    codes = torch.randint(1, 80, (3, 11)) * attention_mask
    times = torch.rand(3, 11).cumsum(-1) * attention_mask
    return EventEncoder().eval(), (codes, times, attention_mask)
