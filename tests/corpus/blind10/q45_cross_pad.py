import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossEncoderLayer(nn.Module):
    """Sequence-first (T, B, E) layer: queries from one padded text, keys from another padded text."""

    def __init__(self, d=32, heads=4):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, heads, dropout=0.1)
        self.cross_attn = nn.MultiheadAttention(d, heads, dropout=0.1)
        self.n1, self.n2, self.n3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

    def forward(self, q, kv, q_pad, kv_pad):
        q = self.n1(q + self.self_attn(q, q, q, key_padding_mask=q_pad, need_weights=False)[0])
        q = self.n2(q + self.cross_attn(q, kv, kv, key_padding_mask=kv_pad, need_weights=False)[0])
        return self.n3(q + self.ff(q))


class PairMatcher(nn.Module):
    def __init__(self, vocab=50, d=32, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, d, padding_idx=pad_id)
        self.pos = nn.Embedding(16, d)
        self.layers = nn.ModuleList(CrossEncoderLayer(d) for _ in range(2))
        self.score = nn.Linear(d, 1)

    def embed(self, ids):
        T = ids.size(1)
        return (self.emb(ids) + self.pos(torch.arange(T))[None]).transpose(0, 1)  # (T, B, E)

    def forward(self, query_ids, query_mask, doc_ids, doc_mask):
        q, d = self.embed(query_ids), self.embed(doc_ids)
        q_pad, d_pad = query_mask == 0, doc_mask == 0
        for layer in self.layers:
            q = layer(q, d, q_pad, d_pad)
        q = q.transpose(0, 1)
        w = query_mask.unsqueeze(-1).to(q.dtype)
        pooled = (q * w).sum(1) / w.sum(1)
        return self.score(pooled).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = PairMatcher().eval()
    qi = torch.zeros(2, 6, dtype=torch.long)
    di = torch.zeros(2, 11, dtype=torch.long)
    for b, (nq, nd) in enumerate([(6, 7), (3, 11)]):
        qi[b, :nq] = torch.randint(1, 50, (nq,))
        di[b, :nd] = torch.randint(1, 50, (nd,))
    return model, (qi, (qi != 0).long(), di, (di != 0).long())
