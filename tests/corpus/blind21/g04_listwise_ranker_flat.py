"""Listwise re-ranker: self-attention across the candidate documents of each query (SetRank-style).

Queries have different numbers of candidates, so the candidates of a batch are kept flat, (N, F),
with a `qid` per row; a candidate may only attend to candidates retrieved for the same query.
The scores feed a per-query softmax cross-entropy (ListNet) outside the model.
"""
import torch
import torch.nn as nn


class ListwiseAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, same_list):
        N, D = x.shape
        q, k, v = self.qkv(x).view(N, 3, self.heads, self.dh).permute(1, 2, 0, 3)   # each (H, N, dh)
        scores = q @ k.transpose(-1, -2) * self.dh ** -0.5
        attn = scores.softmax(dim=-1) * same_list
        return self.out((attn @ v).transpose(0, 1).reshape(N, D))


class RankerBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = ListwiseAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, same_list):
        x = x + self.attn(self.ln1(x), same_list)
        return x + self.ff(self.ln2(x))


class ListwiseRanker(nn.Module):
    def __init__(self, n_features=12, dim=32, heads=4, depth=2):
        super().__init__()
        self.inp = nn.Sequential(nn.Linear(n_features, dim), nn.GELU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList([RankerBlock(dim, heads) for _ in range(depth)])
        self.score = nn.Linear(dim, 1)

    def forward(self, features, qid):
        same_list = qid[:, None] == qid[None, :]
        x = self.inp(torch.sign(features) * torch.log1p(features.abs()))     # heavy-tailed LTR features
        for blk in self.blocks:
            x = blk(x, same_list)
        return self.score(x).squeeze(-1)


def listnet_loss(scores, labels, qid):
    loss = 0.0
    for q in qid.unique():
        sel = qid == q
        loss = loss - (labels[sel].softmax(0) * scores[sel].log_softmax(0)).sum()
    return loss / qid.unique().numel()


def build():
    torch.manual_seed(0)
    model = ListwiseRanker().eval()
    qid = torch.repeat_interleave(torch.arange(3), torch.tensor([5, 7, 4]))
    features = torch.randn(qid.numel(), 12) * 3.0
    return model, (features, qid)
