import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiQueryAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, max_positions=64):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.query_key_value = nn.Linear(hidden_size, hidden_size + 2 * self.head_dim, bias=False)
        self.dense = nn.Linear(hidden_size, hidden_size, bias=False)
        self.inv_norm_factor = 1.0 / math.sqrt(self.head_dim)
        self.register_buffer("causal", torch.ones(max_positions, max_positions, dtype=torch.bool).tril(), persistent=False)

    def _split_heads(self, fused_qkv):
        batch_size, seq_length, _ = fused_qkv.shape
        fused_qkv = fused_qkv.view(batch_size, seq_length, self.num_heads + 2, self.head_dim)
        return fused_qkv[..., :-2, :], fused_qkv[..., [-2], :], fused_qkv[..., [-1], :]

    def forward(self, hidden_states):
        B, T, _ = hidden_states.shape
        query_layer, key_layer, value_layer = self._split_heads(self.query_key_value(hidden_states))
        query_layer = query_layer.transpose(1, 2)
        key_layer = key_layer.transpose(1, 2).expand(-1, self.num_heads, -1, -1)
        value_layer = value_layer.transpose(1, 2).expand(-1, self.num_heads, -1, -1)
        attention_scores = query_layer @ key_layer.transpose(-1, -2)
        attention_scores = attention_scores * self.inv_norm_factor
        attention_scores = attention_scores.masked_fill(~self.causal[:T, :T], torch.finfo(attention_scores.dtype).min)
        attention_probs = F.softmax(attention_scores, dim=-1, dtype=torch.float32)
        attn_output = attention_probs @ value_layer
        attn_output = attn_output.permute(0, 2, 1, 3).reshape(B, T, self.num_heads * self.head_dim)
        return self.dense(attn_output)


class DecoderLayer(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(hidden_size)
        self.self_attention = MultiQueryAttention(hidden_size, num_heads)
        self.mlp = nn.Sequential(nn.Linear(hidden_size, 4 * hidden_size, bias=False), nn.GELU(), nn.Linear(4 * hidden_size, hidden_size, bias=False))

    def forward(self, hidden_states):
        residual = hidden_states
        h = self.input_layernorm(hidden_states)
        return residual + self.self_attention(h) + self.mlp(h)


class MultiQueryLM(nn.Module):
    def __init__(self, vocab=64, hidden_size=32, num_heads=4, num_layers=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden_size)
        self.pos = nn.Embedding(64, hidden_size)
        self.h = nn.ModuleList([DecoderLayer(hidden_size, num_heads) for _ in range(num_layers)])
        self.ln_f = nn.LayerNorm(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab, bias=False)

    def forward(self, input_ids):
        x = self.word_embeddings(input_ids) + self.pos(torch.arange(input_ids.size(1)))
        for layer in self.h:
            x = layer(x)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = MultiQueryLM().eval()
    input_ids = torch.randint(0, 64, (2, 10))
    return model, (input_ids,)
