"""Jamba-style hybrid decoder (Lieber et al., 2024): Mamba layers interleaved with a
grouped-query attention layer, no positional embeddings (the SSM layers carry order).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


class MambaMixer(nn.Module):
    def __init__(self, d, expand=2, d_state=8, d_conv=4):
        super().__init__()
        di = expand * d
        self.in_proj = nn.Linear(d, 2 * di, bias=False)
        self.conv = nn.Conv1d(di, di, d_conv, groups=di, padding=d_conv - 1)
        self.x_proj = nn.Linear(di, 1 + 2 * d_state, bias=False)
        self.dt_proj = nn.Linear(1, di)
        self.A_log = nn.Parameter(torch.log(torch.arange(1, d_state + 1).float()).repeat(di, 1))
        self.D = nn.Parameter(torch.ones(di))
        self.out_proj = nn.Linear(di, d, bias=False)
        self.d_state = d_state

    def forward(self, x):
        T = x.size(1)
        u, z = self.in_proj(x).chunk(2, dim=-1)
        u = F.silu(self.conv(u.transpose(1, 2))[..., :T].transpose(1, 2))
        dt, Bm, Cm = self.x_proj(u).split([1, self.d_state, self.d_state], dim=-1)
        dt = F.softplus(self.dt_proj(dt))                      # (B, T, di)
        A = -torch.exp(self.A_log)                             # (di, N)
        dA = torch.exp(dt.unsqueeze(-1) * A)                   # (B, T, di, N)
        dBu = dt.unsqueeze(-1) * Bm.unsqueeze(2) * u.unsqueeze(-1)
        h = u.new_zeros(u.size(0), u.size(2), self.d_state)
        ys = []
        for t in range(T):
            h = dA[:, t] * h + dBu[:, t]
            ys.append((h * Cm[:, t].unsqueeze(1)).sum(-1))
        y = torch.stack(ys, dim=1) + u * self.D
        return self.out_proj(y * F.silu(z))


class GQAttention(nn.Module):
    def __init__(self, d, n_heads=4, n_kv=2):
        super().__init__()
        self.h, self.kv, self.hd = n_heads, n_kv, d // n_heads
        self.q = nn.Linear(d, n_heads * self.hd, bias=False)
        self.k = nn.Linear(d, n_kv * self.hd, bias=False)
        self.v = nn.Linear(d, n_kv * self.hd, bias=False)
        self.o = nn.Linear(n_heads * self.hd, d, bias=False)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, self.hd).transpose(1, 2)
        k = self.k(x).view(B, T, self.kv, self.hd).transpose(1, 2)
        v = self.v(x).view(B, T, self.kv, self.hd).transpose(1, 2)
        k = k.repeat_interleave(self.h // self.kv, dim=1)
        v = v.repeat_interleave(self.h // self.kv, dim=1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(y.transpose(1, 2).reshape(B, T, -1))


class HybridLayer(nn.Module):
    def __init__(self, d, kind):
        super().__init__()
        self.norm1 = RMSNorm(d)
        self.mixer = MambaMixer(d) if kind == "mamba" else GQAttention(d)
        self.norm2 = RMSNorm(d)
        self.w1, self.w3, self.w2 = nn.Linear(d, 2 * d, bias=False), nn.Linear(d, 2 * d, bias=False), nn.Linear(2 * d, d, bias=False)

    def forward(self, x):
        x = x + self.mixer(self.norm1(x))
        h = self.norm2(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class JambaLM(nn.Module):
    def __init__(self, vocab=90, d=32, pattern=("mamba", "attention", "mamba")):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(HybridLayer(d, kind) for kind in pattern)
        self.norm = RMSNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        x = self.embed(input_ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = JambaLM().eval()
    input_ids = torch.randint(0, 90, (3, 16))
    return model, (input_ids,)
