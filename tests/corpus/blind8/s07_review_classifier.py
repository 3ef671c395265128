import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        bs, seq, dm = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.view(bs, seq, self.n_heads, self.d_k).transpose(1, 2)
        k = k.view(bs, seq, self.n_heads, self.d_k).transpose(1, 2)
        v = v.view(bs, seq, self.n_heads, self.d_k).transpose(1, 2)
        scores = q.matmul(k.transpose(-2, -1)) / math.sqrt(self.d_k)
        probs = F.softmax(scores, dim=-1)
        probs = probs * attention_mask[:, None, None, :].float()
        ctx = probs.matmul(v).transpose(1, 2).reshape(bs, seq, dm)
        return self.out_proj(ctx)


class SentimentModel(nn.Module):
    def __init__(self, vocab=70, d_model=32, n_heads=4, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(32, d_model)
        self.attn = nn.ModuleList(Attention(d_model, n_heads) for _ in range(n_layers))
        self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))
                                 for _ in range(n_layers))
        self.n1 = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(n_layers))
        self.n2 = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(n_layers))
        self.out = nn.Linear(d_model, 2)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.size(1))).unsqueeze(0)
        for att, ff, n1, n2 in zip(self.attn, self.ffn, self.n1, self.n2):
            x = n1(x + att(x, attention_mask))
            x = n2(x + ff(x))
        return self.out(x[:, 0])


def build():
    torch.manual_seed(0)
    model = SentimentModel().eval()
    input_ids = torch.tensor([[1, 23, 45, 12, 9, 2, 0, 0, 0],
                              [1, 7, 66, 31, 2, 0, 0, 0, 0],
                              [1, 14, 8, 19, 55, 3, 21, 10, 2]])
    attention_mask = (input_ids != 0).long()
    return model, (input_ids, attention_mask)
