"""Assignment 2, part B: transformer encoder for padded batches (question classification).

The tokenizer pads with id 1. `attention_mask` is 1 for real tokens and 0 for padding and is
applied to the (batch, heads, query, key) score table before the softmax.
"""
import math

import torch
import torch.nn as nn

PAD_ID = 1


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def split_heads(self, x):
        batch, seq, _ = x.shape
        return x.view(batch, seq, self.num_heads, self.d_k).transpose(1, 2)

    def forward(self, x, attention_mask):
        batch, seq, d_model = x.shape
        q = self.split_heads(self.q_proj(x))
        k = self.split_heads(self.k_proj(x))
        v = self.split_heads(self.v_proj(x))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        scores = scores.masked_fill(attention_mask[:, None, :, None] == 0, -1e9)
        probs = torch.softmax(scores, dim=-1)
        context = torch.matmul(probs, v).transpose(1, 2).contiguous().view(batch, seq, d_model)
        return self.o_proj(context)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = MultiHeadSelfAttention(d_model, num_heads)
        self.feed_forward = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x, attention_mask):
        x = self.norm1(x + self.self_attn(x, attention_mask))
        return self.norm2(x + self.feed_forward(x))


class QuestionClassifier(nn.Module):
    def __init__(self, vocab_size=80, d_model=32, num_heads=4, num_layers=2, d_ff=64, max_len=16, num_classes=6):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model, padding_idx=PAD_ID)
        self.pos_embedding = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, num_heads, d_ff) for _ in range(num_layers)])
        self.classifier = nn.Linear(d_model, num_classes)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.embedding(input_ids) + self.pos_embedding(positions)
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.classifier(x[:, 0])      # first token is [CLS]


def build():
    torch.manual_seed(34)
    model = QuestionClassifier().eval()
    lengths = torch.tensor([10, 6, 3])
    attention_mask = (torch.arange(10)[None] < lengths[:, None]).long()
    input_ids = torch.randint(2, 80, (3, 10)).masked_fill(attention_mask == 0, PAD_ID)
    return model, (input_ids, attention_mask)
