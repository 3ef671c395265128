"""Relation classification with entity position embeddings (Zeng et al., 2014 / PA-LSTM style):
each token gets two relative-position embeddings, its signed distance to the subject and to the
object, added to the word embedding. A Transformer encoder with a hand-rolled pre-norm follows."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = x.var(-1, keepdim=True)
        return self.gamma * (x - mu) / torch.sqrt(var + self.eps) + self.beta


class EncoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.norm1, self.norm2 = LayerNorm(d), LayerNorm(d)
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

    def forward(self, x, pad):
        y = self.norm1(x)
        x = x + self.mha(y, y, y, key_padding_mask=pad)[0]
        return x + self.ffn(self.norm2(x))


class RelationClassifier(nn.Module):
    def __init__(self, vocab=250, d=32, h=4, n_rel=10, max_dist=20):
        super().__init__()
        self.max_dist = max_dist
        self.word = nn.Embedding(vocab, d, padding_idx=0)
        self.subj_pos = nn.Embedding(2 * max_dist + 1, d)
        self.obj_pos = nn.Embedding(2 * max_dist + 1, d)
        self.layers = nn.ModuleList(EncoderLayer(d, h) for _ in range(2))
        self.norm = LayerNorm(d)
        self.head = nn.Linear(3 * d, n_rel)

    def rel_index(self, T, anchor):
        d = torch.arange(T, device=anchor.device)[None, :] - anchor[:, None]
        return d.clamp(-self.max_dist, self.max_dist) + self.max_dist

    def forward(self, tokens, subj, obj):
        B, T = tokens.shape
        pad = tokens.eq(0)
        x = self.word(tokens) + self.subj_pos(self.rel_index(T, subj)) + self.obj_pos(self.rel_index(T, obj))
        for layer in self.layers:
            x = layer(x, pad)
        x = self.norm(x)
        idx = torch.arange(B)
        pooled = x.masked_fill(pad[..., None], -1e4).amax(1)
        return self.head(torch.cat([pooled, x[idx, subj], x[idx, obj]], -1))


def build():
    torch.manual_seed(0)
    model = RelationClassifier().eval()
    tokens = torch.randint(1, 250, (3, 15))
    tokens[1, 11:] = 0
    subj = torch.tensor([2, 0, 6])
    obj = torch.tensor([9, 7, 1])
    return model, (tokens, subj, obj)
