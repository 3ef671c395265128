"""Wait-k simultaneous translation (Ma et al., 2019).

The source encoder is unidirectional (each source prefix is encoded as it arrives), and target
step t may read only the first min(t + k, |x|) source tokens through cross-attention."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def waitk_mask(tgt_len, src_len, k, device=None):
    """True = may attend; row t sees source positions < t + k."""
    t = torch.arange(tgt_len, device=device)[:, None]
    s = torch.arange(src_len, device=device)[None, :]
    return s < (t + k)


def causal_mask(n, device=None):
    return torch.ones(n, n, dtype=torch.bool, device=device).tril()


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.q, self.kv, self.o = nn.Linear(d, d), nn.Linear(d, 2 * d), nn.Linear(d, d)

    def forward(self, x, mem, allow):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.h, -1).transpose(1, 2)
        k, v = self.kv(mem).view(B, mem.size(1), 2, self.h, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=allow)
        return self.o(y.transpose(1, 2).reshape(B, T, D))


class Layer(nn.Module):
    def __init__(self, d, h, cross):
        super().__init__()
        self.self_attn = Attention(d, h)
        self.cross_attn = Attention(d, h) if cross else None
        self.norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(3))
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))

    def forward(self, x, self_allow, mem=None, cross_allow=None):
        y = self.norms[0](x)
        x = x + self.self_attn(y, y, self_allow)
        if self.cross_attn is not None:
            x = x + self.cross_attn(self.norms[1](x), mem, cross_allow)
        return x + self.ff(self.norms[2](x))


class WaitKTransformer(nn.Module):
    def __init__(self, vocab=80, d=32, h=4, layers=2, k=3, max_len=64):
        super().__init__()
        self.k = k
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.enc = nn.ModuleList(Layer(d, h, False) for _ in range(layers))
        self.dec = nn.ModuleList(Layer(d, h, True) for _ in range(layers))
        self.proj = nn.Linear(d, vocab)

    def embed(self, ids):
        return self.emb(ids) * math.sqrt(self.emb.embedding_dim) + self.pos.weight[: ids.size(1)]

    def forward(self, src, prev_output_tokens):
        S, T = src.size(1), prev_output_tokens.size(1)
        mem = self.embed(src)
        for layer in self.enc:
            mem = layer(mem, causal_mask(S, src.device))
        x = self.embed(prev_output_tokens)
        cross = waitk_mask(T, S, self.k, src.device)
        for layer in self.dec:
            x = layer(x, causal_mask(T, src.device), mem, cross)
        return self.proj(x)


def build():
    torch.manual_seed(0)
    model = WaitKTransformer().eval()
    src = torch.randint(1, 80, (2, 14))
    prev = torch.randint(1, 80, (2, 10))
    return model, (src, prev)
