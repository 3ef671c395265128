"""Cross-encoder reranker in the style of HuggingFace BERT modules.

The tokenizer's 0/1 `attention_mask` (B, T) is turned into an additive "extended" mask:
0 for tokens to attend to and the dtype's most negative value for padding, broadcast to
(B, 1, 1, T) and added to the raw scores. The relevance score is read from [CLS].
"""
import math

import torch
import torch.nn as nn


def get_extended_attention_mask(attention_mask, dtype):
    extended = attention_mask[:, None, None, :].to(dtype)
    return (1.0 - extended) * torch.finfo(dtype).min


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.num_attention_heads = heads
        self.attention_head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def transpose_for_scores(self, x):
        new_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(self, hidden_states, extended_mask):
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.attention_head_size)
        scores = scores + extended_mask
        probs = nn.functional.softmax(scores, dim=-1)
        context = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return context.view(context.size()[:-2] + (-1,))


class Layer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.attention = SelfAttention(hidden, heads)
        self.attn_out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, 4 * hidden)
        self.output = nn.Linear(4 * hidden, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, h, ext):
        h = self.ln1(h + self.attn_out(self.attention(h, ext)))
        return self.ln2(h + self.output(nn.functional.gelu(self.intermediate(h))))


class CrossEncoder(nn.Module):
    def __init__(self, vocab=120, hidden=32, heads=4, layers=2, max_pos=32):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position = nn.Embedding(max_pos, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.ln = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList([Layer(hidden, heads) for _ in range(layers)])
        self.pooler = nn.Linear(hidden, hidden)
        self.score = nn.Linear(hidden, 1)

    def forward(self, input_ids, token_type_ids, attention_mask):
        T = input_ids.size(1)
        h = self.word(input_ids) + self.position(torch.arange(T)) + self.token_type(token_type_ids)
        h = self.ln(h)
        ext = get_extended_attention_mask(attention_mask, h.dtype)
        for layer in self.layers:
            h = layer(h, ext)
        return self.score(torch.tanh(self.pooler(h[:, 0]))).squeeze(-1)


def build():
    torch.manual_seed(45)
    model = CrossEncoder().eval()
    lengths = torch.tensor([14, 9, 6])
    attention_mask = (torch.arange(14)[None] < lengths[:, None]).long()
    input_ids = torch.randint(5, 120, (3, 14)) * attention_mask
    token_type_ids = torch.zeros(3, 14, dtype=torch.long)
    token_type_ids[0, 7:14] = 1
    token_type_ids[1, 5:9] = 1
    token_type_ids[2, 3:6] = 1
    return model, (input_ids, token_type_ids, attention_mask)
