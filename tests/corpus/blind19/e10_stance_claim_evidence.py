"""Stance detection over a claim and several evidence snippets packed into one sequence.

Segment layout: [claim | ev_1 | ev_2 | ... | pad]. Attention follows a pair mask by design:
claim tokens attend to the claim only; evidence tokens attend to the claim and to their own
snippet, never to other snippets (so each (claim, evidence) pair is encoded independently of
the others). The stance is read from the claim's first token and a mean over each snippet."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def pair_mask(segment_ids):
    """segment 0 = claim, 1..K = evidence snippets, -1 = padding. Returns (B, T, T), True = attend."""
    q = segment_ids[:, :, None]
    k = segment_ids[:, None, :]
    same = (q == k) & (q >= 0)
    to_claim = (k == 0) & (q > 0)
    pad_self = torch.eye(segment_ids.size(1), dtype=torch.bool, device=segment_ids.device)[None] & (q < 0)
    return same | to_claim | pad_self


class PairAttentionLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, allow):
        B, T, D = x.shape
        q, k, v = self.qkv(x).chunk(3, -1)
        q, k, v = (t.reshape(B, T, self.h, -1).transpose(1, 2) for t in (q, k, v))
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.size(-1))
        s = s.masked_fill(~allow[:, None], torch.finfo(s.dtype).min)
        a = torch.einsum("bhqk,bhkd->bhqd", s.softmax(-1), v)
        x = self.n1(x + self.o(a.transpose(1, 2).reshape(B, T, D)))
        return self.n2(x + self.ff(x))


class StanceModel(nn.Module):
    def __init__(self, vocab=200, d=32, h=4, n_seg=4, n_stance=3):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.seg = nn.Embedding(n_seg + 1, d)
        self.pos = nn.Embedding(32, d)
        self.layers = nn.ModuleList(PairAttentionLayer(d, h) for _ in range(2))
        self.n_seg = n_seg
        self.head = nn.Linear(2 * d, n_stance)

    def forward(self, input_ids, segment_ids):
        T = input_ids.size(1)
        x = self.tok(input_ids) + self.seg(segment_ids.clamp(min=0)) + self.pos.weight[:T]
        allow = pair_mask(segment_ids)
        for layer in self.layers:
            x = layer(x, allow)
        claim = x[:, 0]
        logits = []
        for s in range(1, self.n_seg):
            m = (segment_ids == s).unsqueeze(-1).float()
            ev = (x * m).sum(1) / m.sum(1).clamp(min=1)
            logits.append(self.head(torch.cat([claim, ev], -1)))
        return torch.stack(logits, 1)  # (B, n_evidence, n_stance)


def build():
    torch.manual_seed(0)
    model = StanceModel().eval()
    seg = torch.tensor([
        [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, -1, -1, -1],
        [0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3],
        [0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, -1, -1, -1, -1, -1],
    ])
    ids = torch.randint(1, 200, seg.shape)
    ids[seg < 0] = 0
    return model, (ids, seg)
