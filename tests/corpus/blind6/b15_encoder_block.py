"""Sequence-first transformer encoder in the fairseq layout (T, B, C)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiheadSelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim**-0.5
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout_module = nn.Dropout(dropout)

    def forward(self, x):
        tgt_len, bsz, embed_dim = x.size()
        q = self.q_proj(x) * self.scaling
        k = self.k_proj(x)
        v = self.v_proj(x)
        q = q.contiguous().view(tgt_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        k = k.contiguous().view(tgt_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        v = v.contiguous().view(tgt_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)

        attn_weights = torch.bmm(q, k.transpose(1, 2))
        attn_probs = F.softmax(attn_weights, dim=-1)
        attn_probs = self.dropout_module(attn_probs)
        attn = torch.bmm(attn_probs, v)
        attn = attn.contiguous().view(tgt_len, bsz, embed_dim)
        return self.out_proj(attn)


class EncoderLayer(nn.Module):
    def __init__(self, embed_dim, num_heads, ffn_dim):
        super().__init__()
        self.self_attn = MultiheadSelfAttention(embed_dim, num_heads)
        self.self_attn_layer_norm = nn.LayerNorm(embed_dim)
        self.fc1 = nn.Linear(embed_dim, ffn_dim)
        self.fc2 = nn.Linear(ffn_dim, embed_dim)
        self.final_layer_norm = nn.LayerNorm(embed_dim)

    def forward(self, x):
        x = self.self_attn_layer_norm(x + self.self_attn(x))
        return self.final_layer_norm(x + self.fc2(F.relu(self.fc1(x))))


class Encoder(nn.Module):
    def __init__(self, vocab=50, embed_dim=32, num_heads=4, layers=2, max_len=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, embed_dim)
        self.embed_positions = nn.Embedding(max_len, embed_dim)
        self.layers = nn.ModuleList(EncoderLayer(embed_dim, num_heads, 2 * embed_dim) for _ in range(layers))

    def forward(self, src_tokens):
        # src_tokens: (T, B)
        T = src_tokens.shape[0]
        x = self.embed_tokens(src_tokens) + self.embed_positions(torch.arange(T))[:, None, :]
        for layer in self.layers:
            x = layer(x)
        return x


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    src_tokens = torch.randint(0, 50, (8, 2))
    return model, (src_tokens,)
