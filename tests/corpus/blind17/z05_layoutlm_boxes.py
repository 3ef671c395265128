"""LayoutLM-style encoder for scanned forms.

Every OCR token carries a bounding box (x0, y0, x1, y1) normalised to 0..1000. The box
corners, width and height each get an embedding that is added to the word, 1-D position and
segment embeddings before a BERT-like encoder.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LayoutLayerNorm(nn.Module):
    """TF-style layer norm (epsilon inside the square root)."""

    def __init__(self, hidden, eps=1e-12):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.bias = nn.Parameter(torch.zeros(hidden))
        self.eps = eps

    def forward(self, x):
        u = x.mean(-1, keepdim=True)
        s = x.var(-1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight * x + self.bias


class LayoutEmbeddings(nn.Module):
    def __init__(self, vocab, hidden, max_pos=64, max_2d=1024, type_vocab=2):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position = nn.Embedding(max_pos, hidden)
        self.x_pos = nn.Embedding(max_2d, hidden)
        self.y_pos = nn.Embedding(max_2d, hidden)
        self.h_pos = nn.Embedding(max_2d, hidden)
        self.w_pos = nn.Embedding(max_2d, hidden)
        self.token_type = nn.Embedding(type_vocab, hidden)
        self.LayerNorm = LayoutLayerNorm(hidden)

    def forward(self, input_ids, bbox):
        B, T = input_ids.shape
        pos = torch.arange(T, device=input_ids.device).expand(B, T)
        left, upper = self.x_pos(bbox[..., 0]), self.y_pos(bbox[..., 1])
        right, lower = self.x_pos(bbox[..., 2]), self.y_pos(bbox[..., 3])
        h = self.h_pos(bbox[..., 3] - bbox[..., 1])
        w = self.w_pos(bbox[..., 2] - bbox[..., 0])
        e = (self.word(input_ids) + self.position(pos) + left + upper + right + lower + h + w
             + self.token_type(torch.zeros_like(input_ids)))
        return self.LayerNorm(e)


class EncoderLayer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Linear(hidden, hidden)
        self.ln1 = LayoutLayerNorm(hidden)
        self.ffn = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))
        self.ln2 = LayoutLayerNorm(hidden)

    def forward(self, x, ext_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(D // self.heads) + ext_mask
        ctx = torch.einsum("bhqk,bhkd->bhqd", scores.softmax(-1), v)
        x = self.ln1(x + self.out(ctx.transpose(1, 2).reshape(B, T, D)))
        return self.ln2(x + self.ffn(x))


class LayoutEncoder(nn.Module):
    def __init__(self, vocab=120, hidden=48, heads=4, layers=2, num_labels=7):
        super().__init__()
        self.embeddings = LayoutEmbeddings(vocab, hidden)
        self.layers = nn.ModuleList([EncoderLayer(hidden, heads) for _ in range(layers)])
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, bbox, attention_mask):
        ext = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
        x = self.embeddings(input_ids, bbox)
        for layer in self.layers:
            x = layer(x, ext)
        return self.classifier(x)


def random_boxes(B, T):
    x0 = torch.randint(0, 800, (B, T))
    y0 = torch.randint(0, 900, (B, T))
    return torch.stack([x0, y0, x0 + torch.randint(5, 200, (B, T)), y0 + torch.randint(5, 60, (B, T))], -1)


def build():
    torch.manual_seed(0)
    model = LayoutEncoder().eval()
    ids = torch.randint(1, 120, (2, 14))
    mask = torch.ones(2, 14, dtype=torch.long)
    mask[1, 10:] = 0
    ids[1, 10:] = 0
    bbox = random_boxes(2, 14)
    bbox[1, 10:] = 0
    return model, (ids, bbox, mask)
