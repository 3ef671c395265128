import math

import torch
import torch.nn as nn


def create_position_ids_from_input_ids(input_ids, padding_idx):
    mask = input_ids.ne(padding_idx).int()
    incremental_indices = torch.cumsum(mask, dim=1).type_as(mask) * mask
    return incremental_indices.long() + padding_idx


class RobertaSelfAttention(nn.Module):
    def __init__(self, hidden, heads, p):
        super().__init__()
        self.heads = heads
        self.head_dim = hidden // heads
        self.in_proj = nn.Linear(hidden, 3 * hidden)
        self.out_proj = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(p)

    def forward(self, x, extended_mask):
        B, T, C = x.shape
        q, k, v = self.in_proj(x).split(C, dim=-1)
        q, k, v = (t.reshape(B, T, self.heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        w = torch.matmul(q, k.transpose(-1, -2)) * (self.head_dim ** -0.5)
        w = w + extended_mask
        w = nn.functional.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        w = self.dropout(w)
        ctx = torch.matmul(w, v).transpose(1, 2).reshape(B, T, C)
        return self.out_proj(ctx)


class RobertaLayer(nn.Module):
    def __init__(self, hidden, heads, ff, p):
        super().__init__()
        self.attn = RobertaSelfAttention(hidden, heads, p)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-5)
        self.fc1 = nn.Linear(hidden, ff)
        self.fc2 = nn.Linear(ff, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-5)
        self.drop = nn.Dropout(p)

    def forward(self, x, extended_mask):
        x = self.ln1(x + self.drop(self.attn(x, extended_mask)))
        return self.ln2(x + self.drop(self.fc2(nn.functional.gelu(self.fc1(x)))))


class RobertaClassificationHead(nn.Module):
    def __init__(self, hidden, num_labels, p):
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(p)
        self.out_proj = nn.Linear(hidden, num_labels)

    def forward(self, features):
        x = features[:, 0, :]
        x = self.dropout(x)
        x = torch.tanh(self.dense(x))
        x = self.dropout(x)
        return self.out_proj(x)


class RobertaForSequenceClassification(nn.Module):
    def __init__(self, vocab=60, hidden=32, heads=4, ff=64, layers=2, max_pos=40, num_labels=4, padding_idx=1, p=0.1):
        super().__init__()
        self.padding_idx = padding_idx
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=padding_idx)
        self.position_embeddings = nn.Embedding(max_pos, hidden, padding_idx=padding_idx)
        self.emb_ln = nn.LayerNorm(hidden, eps=1e-5)
        self.layers = nn.ModuleList([RobertaLayer(hidden, heads, ff, p) for _ in range(layers)])
        self.classifier = RobertaClassificationHead(hidden, num_labels, p)

    def forward(self, input_ids, attention_mask):
        position_ids = create_position_ids_from_input_ids(input_ids, self.padding_idx)
        x = self.emb_ln(self.word_embeddings(input_ids) + self.position_embeddings(position_ids))
        ext = attention_mask[:, None, None, :].to(x.dtype)
        ext = (1.0 - ext) * torch.finfo(x.dtype).min
        for layer in self.layers:
            x = layer(x, ext)
        return self.classifier(x)


def build():
    torch.manual_seed(0)
    model = RobertaForSequenceClassification().eval()
    input_ids = torch.randint(3, 60, (3, 10))
    input_ids[:, 0] = 0
    attention_mask = torch.ones(3, 10, dtype=torch.long)
    attention_mask[0, 6:] = 0
    attention_mask[2, 4:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 1)
    return model, (input_ids, attention_mask)
