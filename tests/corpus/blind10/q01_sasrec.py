import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class SASRecConfig:
    n_items: int = 50
    max_len: int = 12
    hidden: int = 32
    heads: int = 2
    blocks: int = 2
    dropout: float = 0.1


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.h = cfg.heads
        self.dk = cfg.hidden // cfg.heads
        self.qkv = nn.Linear(cfg.hidden, 3 * cfg.hidden)
        self.out = nn.Linear(cfg.hidden, cfg.hidden)
        self.drop = nn.Dropout(cfg.dropout)
        causal = torch.ones(cfg.max_len, cfg.max_len, dtype=torch.bool).tril()
        self.register_buffer("causal", causal, persistent=False)

    def forward(self, x, valid):
        B, T, D = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.h, self.dk).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1) / math.sqrt(self.dk)
        allowed = self.causal[:T, :T][None, None] & valid[:, None, None, :]
        att = att.masked_fill(~allowed, torch.finfo(att.dtype).min)
        att = self.drop(att.softmax(dim=-1))
        y = (att @ v).transpose(1, 2).reshape(B, T, D)
        return self.out(y)


class PointWiseFF(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.c1 = nn.Conv1d(cfg.hidden, cfg.hidden, 1)
        self.c2 = nn.Conv1d(cfg.hidden, cfg.hidden, 1)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        y = self.c2(self.drop(F.relu(self.c1(x.transpose(1, 2)))))
        return y.transpose(1, 2) + x


class SASRec(nn.Module):
    """Self-attentive sequential recommendation; sequences are left padded with item 0."""

    def __init__(self, cfg: SASRecConfig):
        super().__init__()
        self.cfg = cfg
        self.item_emb = nn.Embedding(cfg.n_items + 1, cfg.hidden, padding_idx=0)
        self.pos_emb = nn.Embedding(cfg.max_len, cfg.hidden)
        self.emb_drop = nn.Dropout(cfg.dropout)
        self.attn_norms = nn.ModuleList(nn.LayerNorm(cfg.hidden, eps=1e-8) for _ in range(cfg.blocks))
        self.attns = nn.ModuleList(CausalSelfAttention(cfg) for _ in range(cfg.blocks))
        self.ff_norms = nn.ModuleList(nn.LayerNorm(cfg.hidden, eps=1e-8) for _ in range(cfg.blocks))
        self.ffs = nn.ModuleList(PointWiseFF(cfg) for _ in range(cfg.blocks))
        self.last_norm = nn.LayerNorm(cfg.hidden, eps=1e-8)

    def forward(self, log_seqs, seq_mask):
        T = log_seqs.size(1)
        x = self.item_emb(log_seqs) * math.sqrt(self.cfg.hidden)
        x = x + self.pos_emb(torch.arange(T, device=log_seqs.device))[None]
        x = self.emb_drop(x)
        valid = seq_mask.bool()
        x = x * valid.unsqueeze(-1)
        for ln_a, attn, ln_f, ff in zip(self.attn_norms, self.attns, self.ff_norms, self.ffs):
            q = ln_a(x)
            x = q + attn(q, valid)
            x = ff(ln_f(x))
            x = x * valid.unsqueeze(-1)
        feats = self.last_norm(x)
        return feats @ self.item_emb.weight[1:].t()


def build():
    torch.manual_seed(0)
    cfg = SASRecConfig()
    model = SASRec(cfg).eval()
    lengths = torch.tensor([12, 7, 4])
    seqs = torch.zeros(3, cfg.max_len, dtype=torch.long)
    for b, n in enumerate(lengths.tolist()):
        seqs[b, cfg.max_len - n:] = torch.randint(1, cfg.n_items + 1, (n,))
    mask = (seqs != 0).long()
    return model, (seqs, mask)
