import math
import torch
import torch.nn as nn


class LSEAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, x):
        T, B, D = x.shape
        H, Dh = self.n_heads, self.d_head
        q = self.q(x).view(T, B, H, Dh)
        k = self.k(x).view(T, B, H, Dh)
        v = self.v(x).view(T, B, H, Dh)
        logits = torch.einsum("ibhd,jbhd->bhij", q, k) / math.sqrt(Dh)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        logits = logits.masked_fill(~causal, float("-inf"))
        log_p = logits - torch.logsumexp(logits, dim=-1, keepdim=True)
        p = log_p.exp()
        out = torch.einsum("bhij,jbhd->ibhd", p, v).reshape(T, B, D)
        return self.o(out)


class Decoder(nn.Module):
    def __init__(self, d_model=32, n_heads=4, n_layers=2):
        super().__init__()
        self.attn = nn.ModuleList([LSEAttention(d_model, n_heads) for _ in range(n_layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
                                 for _ in range(n_layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])

    def forward(self, x):
        for a, f, l1, l2 in zip(self.attn, self.ff, self.ln1, self.ln2):
            x = x + a(l1(x))
            x = x + f(l2(x))
        return x


def build():
    torch.manual_seed(0)
    model = Decoder().eval()
    x = torch.randn(8, 2, 32)
    return model, (x,)
