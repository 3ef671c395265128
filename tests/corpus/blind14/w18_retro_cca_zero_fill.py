"""RETRO-style decoder block: causal self-attention, then chunked cross-attention in which the
tokens of chunk c read the retrieved neighbours of chunk c - 1 (variable-length, padded)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChunkedCrossAttention(nn.Module):
    def __init__(self, d, heads, chunk):
        super().__init__()
        self.h, self.dh, self.chunk = heads, d // heads, chunk
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)

    def forward(self, h, nbr_states, nbr_mask):
        B, T, D = h.shape
        n = T // self.chunk
        q = self.q(h[:, self.chunk:]).view(B, n - 1, self.chunk, self.h, self.dh)
        mem = nbr_states[:, : n - 1].flatten(2, 3)  # (B, n-1, K*R, D): neighbours of the previous chunk
        keep = nbr_mask[:, : n - 1].flatten(2, 3)
        k, v = self.kv(mem).view(B, n - 1, -1, 2, self.h, self.dh).unbind(3)
        scores = torch.einsum("bcqhd,bckhd->bchqk", q, k) / self.dh ** 0.5
        scores = scores.masked_fill(~keep[:, :, None, None, :], 0.0)
        attn = scores.softmax(dim=-1)
        out = torch.einsum("bchqk,bckhd->bcqhd", attn, v).reshape(B, T - self.chunk, D)
        return F.pad(self.o(out), (0, 0, self.chunk, 0))  # the first chunk has nothing retrieved yet


class RetroBlock(nn.Module):
    def __init__(self, d=32, heads=4, chunk=4):
        super().__init__()
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.self_attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.cca = ChunkedCrossAttention(d, heads, chunk)
        self.ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, nbr_states, nbr_mask):
        T = x.size(1)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
        h = self.ln1(x)
        x = x + self.self_attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        x = x + self.cca(self.ln2(x), nbr_states, nbr_mask)
        return x + self.ffn(self.ln3(x))


class RetroLM(nn.Module):
    def __init__(self, vocab=90, d=32, chunk=4, max_len=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.block = RetroBlock(d, chunk=chunk)
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids, nbr_states, nbr_mask):
        x = self.emb(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        return self.head(self.ln_f(self.block(x, nbr_states, nbr_mask)))


def build():
    torch.manual_seed(0)
    model = RetroLM().eval()
    B, n_chunks, K, R = 2, 3, 2, 5
    input_ids = torch.randint(0, 90, (B, 12))
    nbr_states = torch.randn(B, n_chunks, K, R, 32)
    nbr_len = torch.randint(2, R, (B, n_chunks, K))
    nbr_mask = torch.arange(R) < nbr_len[..., None]
    return model, (input_ids, nbr_states, nbr_mask)
