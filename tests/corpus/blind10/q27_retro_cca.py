import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CCA(nn.Module):
    """Chunked cross-attention: tokens of chunk u attend to the neighbours retrieved for chunk u."""

    def __init__(self, d=32, heads=2, chunk=4):
        super().__init__()
        self.h, self.chunk = heads, chunk
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)
        self.wv = nn.Linear(d, d)
        self.wo = nn.Linear(d, d)

    def forward(self, x, nbr, nbr_mask):
        # x [B, L, d]; nbr [B, C, K*R, d]; nbr_mask [B, C, K*R] float 1/0
        B, L, d = x.shape
        C, S = nbr.shape[1], nbr.shape[2]
        dh = d // self.h
        q = self.wq(x).view(B, C, self.chunk, self.h, dh).permute(0, 1, 3, 2, 4)  # B C H m dh
        k = self.wk(nbr).view(B, C, S, self.h, dh).permute(0, 1, 3, 2, 4)        # B C H S dh
        v = self.wv(nbr).view(B, C, S, self.h, dh).permute(0, 1, 3, 2, 4)
        logits = torch.einsum("bchmd,bchsd->bchms", q, k) / math.sqrt(dh)
        probs = logits.softmax(dim=-1)
        probs = probs * nbr_mask[:, :, None, None, :]
        out = torch.einsum("bchms,bchsd->bchmd", probs, v)
        out = out.permute(0, 1, 3, 2, 4).reshape(B, L, d)
        return self.wo(out)


class RetroBlock(nn.Module):
    def __init__(self, vocab=50, d=32, chunk=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.nbr_proj = nn.Sequential(nn.Linear(d, d), nn.GELU())
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.cca = CCA(d, chunk=chunk)
        self.ffn = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens, nbr_tokens, nbr_mask):
        B, C, K, R = nbr_tokens.shape
        x = self.emb(tokens)
        nbr = self.nbr_proj(self.emb(nbr_tokens)).view(B, C, K * R, -1)
        x = x + self.cca(self.ln1(x), nbr, nbr_mask.view(B, C, K * R).float())
        x = x + self.ffn(self.ln2(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = RetroBlock().eval()
    B, L, C, K, R = 2, 8, 2, 2, 4
    tokens = torch.randint(1, 50, (B, L))
    lens = torch.randint(2, R + 1, (B, C, K))
    lens[1, 1] = torch.tensor([2, 3])
    nbr_mask = torch.arange(R) < lens[..., None]
    nbr_tokens = torch.randint(1, 50, (B, C, K, R)).masked_fill(~nbr_mask, 0)
    return model, (tokens, nbr_tokens, nbr_mask)
