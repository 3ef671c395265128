"""A miniature BERT encoder with a pooler head."""
import math

import torch
import torch.nn as nn


class BertSelfAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, dropout=0.1):
        super().__init__()
        self.num_heads = num_heads
        self.head_size = hidden_size // num_heads
        self.query = nn.Linear(hidden_size, hidden_size)
        self.key = nn.Linear(hidden_size, hidden_size)
        self.value = nn.Linear(hidden_size, hidden_size)
        self.dropout = nn.Dropout(dropout)

    def transpose_for_scores(self, x):
        new_shape = x.size()[:-1] + (self.num_heads, self.head_size)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(self, hidden_states, extended_attention_mask):
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)
        scores = scores + extended_attention_mask
        probs = nn.functional.softmax(scores, dim=-1)
        probs = self.dropout(probs)
        context = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return context.view(context.size()[:-2] + (-1,))


class BertLayer(nn.Module):
    def __init__(self, hidden_size, num_heads, intermediate_size):
        super().__init__()
        self.attention = BertSelfAttention(hidden_size, num_heads)
        self.attn_out = nn.Linear(hidden_size, hidden_size)
        self.attn_norm = nn.LayerNorm(hidden_size, eps=1e-12)
        self.intermediate = nn.Linear(hidden_size, intermediate_size)
        self.output = nn.Linear(intermediate_size, hidden_size)
        self.out_norm = nn.LayerNorm(hidden_size, eps=1e-12)
        self.dropout = nn.Dropout(0.1)

    def forward(self, hidden_states, extended_attention_mask):
        attn = self.attention(hidden_states, extended_attention_mask)
        hidden_states = self.attn_norm(hidden_states + self.dropout(self.attn_out(attn)))
        ff = self.output(nn.functional.gelu(self.intermediate(hidden_states)))
        return self.out_norm(hidden_states + self.dropout(ff))


class TinyBert(nn.Module):
    def __init__(self, vocab_size=100, hidden_size=32, num_heads=4, num_layers=2, max_position=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_position, hidden_size)
        self.token_type_embeddings = nn.Embedding(2, hidden_size)
        self.emb_norm = nn.LayerNorm(hidden_size, eps=1e-12)
        self.layers = nn.ModuleList(BertLayer(hidden_size, num_heads, 4 * hidden_size) for _ in range(num_layers))
        self.pooler = nn.Linear(hidden_size, hidden_size)

    def get_extended_attention_mask(self, attention_mask, dtype):
        # (B, T) -> (B, 1, 1, T), broadcast over heads and query positions
        extended = attention_mask[:, None, None, :].to(dtype)
        return extended * torch.finfo(dtype).min

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        h = self.word_embeddings(input_ids) + self.position_embeddings(positions) + self.token_type_embeddings(token_type_ids)
        h = self.emb_norm(h)
        ext = self.get_extended_attention_mask(attention_mask, h.dtype)
        for layer in self.layers:
            h = layer(h, ext)
        pooled = torch.tanh(self.pooler(h[:, 0]))
        return h, pooled


def build():
    torch.manual_seed(0)
    model = TinyBert().eval()
    lengths = torch.tensor([7, 5])
    attention_mask = (torch.arange(9)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(1, 100, (2, 9)) * attention_mask
    return model, (input_ids, attention_mask)
