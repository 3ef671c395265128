"""TiSASRec (Li et al., WSDM 2020): time-interval aware self-attention for sequential recommendation.

Sequences are left padded with item 0. The relation between interactions i and j is their time gap
in units of the user's smallest non-zero gap, clipped at k; learned interval embeddings are added
to the keys and values, next to absolute position embeddings.
"""
import torch
import torch.nn as nn


class TimeIntervalAttention(nn.Module):
    def __init__(self, dim, k_max):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.rel_k, self.rel_v = nn.Embedding(k_max + 1, dim), nn.Embedding(k_max + 1, dim)

    def forward(self, x, rel, allowed):
        q, k, v = self.q(x), self.k(x), self.v(x)
        rk, rv = self.rel_k(rel), self.rel_v(rel)
        scores = (q @ k.transpose(1, 2) + torch.einsum("bid,bijd->bij", q, rk)) / x.size(-1) ** 0.5
        w = scores.masked_fill(~allowed, float("-inf")).softmax(-1)
        return w @ v + torch.einsum("bij,bijd->bid", w, rv)


class TiSASRec(nn.Module):
    def __init__(self, n_items=300, dim=32, max_len=20, k_max=64, n_blocks=2):
        super().__init__()
        self.k_max = k_max
        self.item_emb = nn.Embedding(n_items + 1, dim, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, dim)
        self.attn = nn.ModuleList(TimeIntervalAttention(dim, k_max) for _ in range(n_blocks))
        self.ln_a = nn.ModuleList(nn.LayerNorm(dim) for _ in range(n_blocks))
        self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
                                 for _ in range(n_blocks))
        self.ln_f = nn.ModuleList(nn.LayerNorm(dim) for _ in range(n_blocks))
        self.ln_out = nn.LayerNorm(dim)

    def relation_matrix(self, ts, valid):
        gaps = (ts[:, :, None] - ts[:, None, :]).abs().float()
        pair = valid[:, :, None] & valid[:, None, :]
        gaps = gaps.masked_fill(~pair, 0.0)
        unit = gaps.masked_fill(gaps == 0, float("inf")).amin()
        unit = torch.where(torch.isinf(unit), torch.ones_like(unit), unit)
        return (gaps / unit).floor().clamp(max=self.k_max).long()

    def forward(self, seq, ts):
        B, T = seq.shape
        valid = seq > 0
        rel = self.relation_matrix(ts, valid)
        eye = torch.eye(T, dtype=torch.bool, device=seq.device)
        allowed = torch.ones(T, T, dtype=torch.bool, device=seq.device).tril() & (valid[:, None, :] | eye)
        x = self.item_emb(seq) * self.item_emb.embedding_dim ** 0.5
        x = (x + self.pos_emb(torch.arange(T, device=seq.device))) * valid.unsqueeze(-1)
        for attn, ln_a, ffn, ln_f in zip(self.attn, self.ln_a, self.ffn, self.ln_f):
            x = x + attn(ln_a(x), rel, allowed)
            x = (x + ffn(ln_f(x))) * valid.unsqueeze(-1)
        h = self.ln_out(x)
        return h @ self.item_emb.weight[1:].T


def build():
    torch.manual_seed(0)
    model = TiSASRec().eval()
    seq = torch.randint(1, 301, (3, 12))
    gaps = torch.stack([torch.randint(40, 400, (12,)), torch.randint(60, 900, (12,)), torch.randint(30, 200, (12,))])
    ts = gaps.cumsum(1) + 1_600_000
    seq[1, :4], seq[2, :7] = 0, 0
    ts[seq == 0] = 0
    return model, (seq, ts)
