"""Big Bird style encoder (Zaheer et al., 2020) for token tagging: window + global + random
keys, combined with the key padding mask into one boolean mask for SDPA (True = attend).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def bigbird_pattern(max_len, window=2, n_global=2, n_random=2, seed=0):
    g = torch.Generator().manual_seed(seed)
    i = torch.arange(max_len)[:, None]
    j = torch.arange(max_len)[None, :]
    allowed = ((i - j).abs() <= window) | (i < n_global) | (j < n_global)
    for r in range(max_len):
        allowed[r, torch.randperm(max_len, generator=g)[:n_random]] = True
    return allowed


class BigBirdSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, max_len):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.register_buffer("pattern", bigbird_pattern(max_len), persistent=False)

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).unbind(dim=2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        keep = self.pattern[:T, :T][None, None] & attention_mask.bool()[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        return self.out(y.transpose(1, 2).reshape(B, T, D))


class Layer(nn.Module):
    def __init__(self, d_model, n_heads, max_len):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = BigBirdSelfAttention(d_model, n_heads, max_len)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, attention_mask):
        x = x + self.attn(self.ln1(x), attention_mask)
        return x + self.ff(self.ln2(x))


class BigBirdTagger(nn.Module):
    def __init__(self, vocab=100, d_model=32, n_heads=4, layers=2, max_len=64, n_tags=9):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(Layer(d_model, n_heads, max_len) for _ in range(layers))
        self.norm = nn.LayerNorm(d_model)
        self.tagger = nn.Linear(d_model, n_tags)

    def forward(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.tok(input_ids) + self.pos(pos)
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.tagger(self.norm(x))


def build():
    torch.manual_seed(0)
    model = BigBirdTagger().eval()
    lengths = torch.tensor([20, 13, 9])
    attention_mask = (torch.arange(20)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(1, 100, (3, 20)) * attention_mask
    return model, (input_ids, attention_mask)
