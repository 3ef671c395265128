"""Contrastive dual encoder (bi-encoder retrieval) trained with in-batch negatives: queries and
passages are encoded independently; the score matrix compares every query with every passage."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab=120, d=32, heads=4, layers=2, max_len=16, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab, d, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, activation="gelu", batch_first=True)
        self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, ids):
        pad = ids.eq(self.pad_id)
        h = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        h = self.enc(h, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).to(h.dtype)
        return (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)


class BiEncoder(nn.Module):
    def __init__(self, d=32, out=24, temperature=0.05):
        super().__init__()
        self.q_enc = Encoder(d=d)
        self.p_enc = Encoder(d=d)
        self.q_head = nn.Linear(d, out)
        self.p_head = nn.Linear(d, out)
        self.temperature = temperature

    def forward(self, query_ids, passage_ids):
        q = F.normalize(self.q_head(self.q_enc(query_ids)), dim=-1)
        p = F.normalize(self.p_head(self.p_enc(passage_ids)), dim=-1)
        scores = q @ p.T / self.temperature  # (Bq, Bp): every query against every passage in the batch
        return scores, q, p


def build():
    torch.manual_seed(0)
    model = BiEncoder().eval()
    qlen = torch.tensor([6, 9, 4, 8])
    plen = torch.tensor([16, 11, 13, 9])
    query_ids = torch.randint(1, 120, (4, 9)) * (torch.arange(9)[None] < qlen[:, None])
    passage_ids = torch.randint(1, 120, (4, 16)) * (torch.arange(16)[None] < plen[:, None])
    return model, (query_ids, passage_ids)
