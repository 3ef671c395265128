import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, d_q, d_kv, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.to_q = nn.Linear(d_q, d_model, bias=False)
        self.to_k = nn.Linear(d_kv, d_model, bias=False)
        self.to_v = nn.Linear(d_kv, d_model, bias=False)
        self.to_out = nn.Linear(d_model, d_q)

    def forward(self, x, context, src_mask):
        B, Tq, _ = x.shape
        Tk = context.shape[1]
        h = self.n_heads
        q = self.to_q(x).reshape(B, Tq, h, -1).transpose(1, 2)
        k = self.to_k(context).reshape(B, Tk, h, -1).transpose(1, 2)
        v = self.to_v(context).reshape(B, Tk, h, -1).transpose(1, 2)
        scores = (q @ k.transpose(-1, -2)) * q.shape[-1] ** -0.5
        scores = torch.where(src_mask[:, None, None, :], scores, torch.finfo(scores.dtype).min)
        attn = F.softmax(scores, dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, Tq, -1)
        return self.to_out(out)


class QueryDocModel(nn.Module):
    def __init__(self, d_q=24, d_kv=16, d_model=32, n_heads=4):
        super().__init__()
        self.cross = CrossAttention(d_q, d_kv, d_model, n_heads)
        self.norm_q = nn.LayerNorm(d_q)
        self.norm_kv = nn.LayerNorm(d_kv)
        self.ff = nn.Sequential(nn.LayerNorm(d_q), nn.Linear(d_q, 2 * d_q), nn.GELU(), nn.Linear(2 * d_q, d_q))

    def forward(self, queries, docs, src_mask):
        x = queries + self.cross(self.norm_q(queries), self.norm_kv(docs), src_mask)
        return x + self.ff(x)


def build():
    torch.manual_seed(0)
    model = QueryDocModel().eval()
    queries = torch.randn(2, 5, 24)
    docs = torch.randn(2, 9, 16)
    src_mask = torch.tensor([[True] * 9, [True] * 6 + [False] * 3])
    return model, (queries, docs, src_mask)
