"""RETRO chunked cross-attention with the paper's shift: token i reads the neighbours of the last
chunk that is complete at i, i.e. the sequence is shifted left by chunk_len - 1 before chunking."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChunkedCrossAttention(nn.Module):
    def __init__(self, d, heads, chunk_len):
        super().__init__()
        self.heads, self.chunk_len = heads, chunk_len
        self.to_q = nn.Linear(d, d, bias=False)
        self.to_k = nn.Linear(d, d, bias=False)
        self.to_v = nn.Linear(d, d, bias=False)
        self.to_out = nn.Linear(d, d)

    def forward(self, x, neighbours, nbr_pad):
        B, T, D = x.shape
        C, H = self.chunk_len, self.heads
        n = T // C
        shifted = x[:, C - 1:]  # position i = (c+1)*C - 1 + j reads chunk c's neighbours
        shifted = F.pad(shifted, (0, 0, 0, C - 1))  # pad the tail up to n chunks
        q = shifted.reshape(B * n, C, D)
        mem = neighbours.reshape(B * n, -1, D)  # all K neighbours of a chunk, concatenated
        pad = nbr_pad.reshape(B * n, -1)
        split = lambda t: t.view(t.size(0), t.size(1), H, D // H).transpose(1, 2)
        bias = torch.zeros(pad.shape, device=x.device).masked_fill(pad, float("-inf"))[:, None, None, :]
        out = F.scaled_dot_product_attention(split(self.to_q(q)), split(self.to_k(mem)), split(self.to_v(mem)), attn_mask=bias)
        out = out.transpose(1, 2).reshape(B, n * C, D)[:, : T - (C - 1)]
        out = F.pad(out, (0, 0, C - 1, 0))  # the first C - 1 tokens see no retrieval
        return self.to_out(out) * (torch.arange(T, device=x.device) >= C - 1)[None, :, None]


class RetroDecoderLayer(nn.Module):
    def __init__(self, d=32, heads=4, chunk_len=4):
        super().__init__()
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.heads = heads
        self.cca = ChunkedCrossAttention(d, heads, chunk_len)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, neighbours, nbr_pad):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(B, T, D))
        x = x + self.cca(self.norm2(x), neighbours, nbr_pad)
        return x + self.mlp(self.norm3(x))


class Retro(nn.Module):
    def __init__(self, vocab=90, d=32, chunk_len=4):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(64, d) * 0.02)
        self.layer = RetroDecoderLayer(d, chunk_len=chunk_len)
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, neighbours, nbr_pad):
        x = self.tok(input_ids) + self.pos[: input_ids.size(1)]
        return self.lm_head(self.norm(self.layer(x, neighbours, nbr_pad)))


def build():
    torch.manual_seed(0)
    model = Retro().eval()
    B, n, K, R = 2, 3, 2, 5
    input_ids = torch.randint(0, 90, (B, n * 4))
    neighbours = torch.randn(B, n, K, R, 32)  # encoder states of the retrieved neighbours of each chunk
    nbr_pad = torch.arange(R) >= torch.randint(2, R + 1, (B, n, K, 1))
    return model, (input_ids, neighbours, nbr_pad)
