"""Time-first (T, B, C) transformer language model in the fairseq style.

The multi-head attention module folds the heads into the batch axis, (B * H, T, d_head), and
uses torch.bmm; the causal mask is an additive (T, T) float mask.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, query, attn_mask):
        tgt_len, bsz, embed_dim = query.size()

        def shape(t):
            return t.contiguous().view(bsz * self.num_heads, -1, self.head_dim)

        q = shape(self.q_proj(query) * self.scaling)
        k = shape(self.k_proj(query))
        v = shape(self.v_proj(query))
        attn_weights = torch.bmm(q, k.transpose(1, 2))           # (bsz * heads, tgt, src)
        attn_weights = attn_weights + attn_mask.unsqueeze(0)
        attn_probs = F.softmax(attn_weights, dim=-1)
        attn = torch.bmm(attn_probs, v)                          # (bsz * heads, tgt, head_dim)
        attn = attn.transpose(0, 1).contiguous().view(tgt_len, bsz, embed_dim)
        return self.out_proj(attn)


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn = MultiheadAttention(dim, heads)
        self.self_attn_layer_norm = nn.LayerNorm(dim)
        self.fc1, self.fc2 = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)
        self.final_layer_norm = nn.LayerNorm(dim)

    def forward(self, x, mask):
        x = x + self.self_attn(self.self_attn_layer_norm(x), mask)
        return x + self.fc2(F.relu(self.fc1(self.final_layer_norm(x))))


class TransformerLM(nn.Module):
    def __init__(self, vocab=56, dim=32, heads=4, layers=2, max_positions=32):
        super().__init__()
        self.embed_scale = math.sqrt(dim)
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.embed_positions = nn.Embedding(max_positions, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim, heads) for _ in range(layers)])
        self.layer_norm = nn.LayerNorm(dim)
        self.output_projection = nn.Linear(dim, vocab, bias=False)

    def forward(self, src_tokens):
        # src_tokens: (B, T) -> logits (B, T, V); the layers work time-first
        B, T = src_tokens.shape
        x = self.embed_scale * self.embed_tokens(src_tokens) + self.embed_positions(torch.arange(T))
        x = x.transpose(0, 1)
        future = torch.triu(torch.full((T, T), float("-inf")), 1)
        for layer in self.layers:
            x = layer(x, future)
        x = self.layer_norm(x).transpose(0, 1)
        return self.output_projection(x)


def build():
    torch.manual_seed(40)
    model = TransformerLM().eval()
    return model, (torch.randint(0, 56, (2, 12)),)
