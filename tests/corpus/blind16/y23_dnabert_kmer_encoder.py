"""DNABERT-style promoter classifier over overlapping k-mer tokens.

A DNA string is cut into overlapping 3-mers (64 tokens + specials), padded to a fixed length,
and encoded by a small pre-LN transformer; the promoter logit comes from the mean of the real
token states.
"""
import itertools

import torch
import torch.nn as nn

K = 3
SPECIALS = ["[PAD]", "[CLS]", "[SEP]", "[UNK]"]
KMERS = ["".join(p) for p in itertools.product("ACGT", repeat=K)]
VOCAB = {tok: i for i, tok in enumerate(SPECIALS + KMERS)}


def tokenize(seqs, max_len):
    ids = torch.zeros(len(seqs), max_len, dtype=torch.long)
    mask = torch.zeros(len(seqs), max_len, dtype=torch.long)
    for b, s in enumerate(seqs):
        toks = [VOCAB["[CLS]"]] + [VOCAB.get(s[i:i + K], VOCAB["[UNK]"]) for i in range(len(s) - K + 1)]
        toks = (toks + [VOCAB["[SEP]"]])[:max_len]
        ids[b, :len(toks)] = torch.tensor(toks)
        mask[b, :len(toks)] = 1
    return ids, mask


class EncoderBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, key_padding_mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return x + self.ff(self.ln2(x))


class PromoterClassifier(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(len(VOCAB), dim, padding_idx=VOCAB["[PAD]"])
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList([EncoderBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.cls = nn.Linear(dim, 2)

    def forward(self, input_ids, attention_mask):
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        kpm = attention_mask.bool()
        for blk in self.blocks:
            x = blk(x, kpm)
        w = attention_mask.unsqueeze(-1).float()
        pooled = (self.norm(x) * w).sum(1) / w.sum(1)
        return self.cls(pooled)


def build():
    torch.manual_seed(0)
    model = PromoterClassifier().eval()
    g = torch.Generator().manual_seed(1)
    seqs = ["".join("ACGT"[i] for i in torch.randint(0, 4, (n,), generator=g)) for n in (26, 17, 21)]
    input_ids, attention_mask = tokenize(seqs, max_len=30)
    return model, (input_ids, attention_mask)
