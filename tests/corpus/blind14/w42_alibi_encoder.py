"""Bidirectional encoder with symmetric ALiBi (MosaicBERT / ALiBi-BERT style): the bias is
-slope * |i - j| in both directions; padded keys are masked, [CLS] pooled."""
import math

import torch
import torch.nn as nn


def alibi_slopes(n_heads):
    start = 2 ** (-(2 ** -(math.log2(n_heads) - 3)))
    return torch.tensor([start ** (i + 1) for i in range(n_heads)])


class AlibiSelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.dh = heads, d // heads
        self.Wqkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.register_buffer("slopes", alibi_slopes(heads), persistent=False)

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        q, k, v = self.Wqkv(x).reshape(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T, device=x.device)
        distance = (pos[None, :] - pos[:, None]).abs()  # symmetric: an encoder sees both sides
        bias = -self.slopes[:, None, None] * distance  # (H, T, T)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh) + bias
        scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, torch.finfo(scores.dtype).min)
        probs = torch.softmax(scores, dim=-1)
        return self.out(torch.matmul(probs, v).transpose(1, 2).reshape(B, T, D))


class Layer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = AlibiSelfAttention(d, heads)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, attention_mask):
        x = self.ln1(x + self.attn(x, attention_mask))
        return self.ln2(x + self.mlp(x))


class AlibiBert(nn.Module):
    def __init__(self, vocab=150, d=32, heads=4, layers=2, n_labels=3):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.emb_ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(Layer(d, heads) for _ in range(layers))
        self.pooler = nn.Sequential(nn.Linear(d, d), nn.Tanh())
        self.classifier = nn.Linear(d, n_labels)

    def forward(self, input_ids, attention_mask):
        x = self.emb_ln(self.tok(input_ids))  # no position embeddings: ALiBi carries position
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.classifier(self.pooler(x[:, 0]))


def build():
    torch.manual_seed(0)
    model = AlibiBert().eval()
    attention_mask = (torch.arange(16)[None] < torch.tensor([16, 10, 6])[:, None]).long()
    input_ids = torch.randint(5, 150, (3, 16)) * attention_mask
    input_ids[:, 0] = 2  # [CLS]
    return model, (input_ids, attention_mask)
