import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        q = self.query(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.key(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.value(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        log_mask = torch.log(attention_mask.float() + 1e-2)
        scores = scores + log_mask[:, None, None, :]
        probs = F.softmax(scores, dim=-1)
        return self.out((probs @ v).transpose(1, 2).reshape(B, T, D))


class Encoder(nn.Module):
    def __init__(self, vocab=50, d_model=32, n_heads=4, n_layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(16, d_model)
        self.attn = nn.ModuleList([Attention(d_model, n_heads) for _ in range(n_layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Linear(64, d_model)) for _ in range(n_layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])

    def forward(self, input_ids, attention_mask):
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.size(1)))
        for a, f, l1, l2 in zip(self.attn, self.ff, self.ln1, self.ln2):
            x = l1(x + a(x, attention_mask))
            x = l2(x + f(x))
        return x


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    input_ids = torch.tensor([[3, 12, 28, 7, 0, 0, 0, 0], [9, 41, 16, 22, 35, 5, 11, 2]])
    attention_mask = (input_ids != 0).long()
    return model, (input_ids, attention_mask)
