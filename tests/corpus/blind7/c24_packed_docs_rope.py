import torch
import torch.nn as nn
import torch.nn.functional as F


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, T, device=None):
        t = torch.arange(T, device=device, dtype=self.inv_freq.dtype)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat([freqs, freqs], dim=-1)
        return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.dh = d // heads
        self.wq = nn.Linear(d, d, bias=False)
        self.wk = nn.Linear(d, d, bias=False)
        self.wv = nn.Linear(d, d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)
        self.rope = RotaryEmbedding(self.dh)

    def forward(self, x, mask):
        B, T, D = x.shape
        q = self.wq(x).view(B, T, self.h, self.dh).transpose(1, 2)
        k = self.wk(x).view(B, T, self.h, self.dh).transpose(1, 2)
        v = self.wv(x).view(B, T, self.h, self.dh).transpose(1, 2)
        cos, sin = self.rope(T, x.device)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.wo(out.transpose(1, 2).reshape(B, T, D))


class PackedRopeLM(nn.Module):
    def __init__(self, vocab=60, d=32, heads=4, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(
            [nn.ModuleList([nn.RMSNorm(d), Attention(d, heads), nn.RMSNorm(d),
                            nn.Sequential(nn.Linear(d, 3 * d), nn.SiLU(), nn.Linear(3 * d, d))]) for _ in range(n_layers)]
        )
        self.norm = nn.RMSNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, seq_ids):
        T = input_ids.shape[1]
        same = seq_ids.unsqueeze(-1) == seq_ids.unsqueeze(-2)
        causal = torch.ones(T, T, dtype=torch.bool, device=input_ids.device).tril()
        mask = (same & causal).unsqueeze(1)
        x = self.embed(input_ids)
        for n1, attn, n2, ff in self.layers:
            x = x + attn(n1(x), mask)
            x = x + ff(n2(x))
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = PackedRopeLM().eval()
    input_ids = torch.randint(0, 60, (2, 12))
    seq_ids = torch.tensor([[0] * 4 + [1] * 5 + [2] * 3, [0] * 6 + [1] * 6])
    return model, (input_ids, seq_ids)
