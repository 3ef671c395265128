"""Gated DeltaNet (Yang et al. 2024) token mixer in its recurrent form.

State update per head:  S_t = a_t * S_{t-1} (I - b_t k_t k_t^T) + b_t v_t k_t^T,   o_t = S_t q_t
with L2-normalised q, k, a data-dependent decay a_t in (0, 1) and write strength b_t in (0, 1).
A short causal depthwise conv precedes q/k/v, as in the reference models.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ShortConv(nn.Module):
    def __init__(self, dim, kernel=4):
        super().__init__()
        self.kernel = kernel
        self.conv = nn.Conv1d(dim, dim, kernel, groups=dim)

    def forward(self, x):                                    # (B, T, D)
        x = F.pad(x.transpose(1, 2), (self.kernel - 1, 0))
        return F.silu(self.conv(x)).transpose(1, 2)


class GatedDeltaNet(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dk = heads, dim // heads
        self.q_proj, self.k_proj, self.v_proj = (nn.Linear(dim, dim, bias=False) for _ in range(3))
        self.q_conv, self.k_conv, self.v_conv = ShortConv(dim), ShortConv(dim), ShortConv(dim)
        self.a_proj = nn.Linear(dim, heads)
        self.b_proj = nn.Linear(dim, heads)
        self.A_log = nn.Parameter(torch.zeros(heads).uniform_(0.0, 1.0))
        self.o_norm = nn.LayerNorm(self.dk)
        self.g_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q = F.normalize(self.q_conv(self.q_proj(x)).view(B, T, self.h, self.dk), dim=-1)
        k = F.normalize(self.k_conv(self.k_proj(x)).view(B, T, self.h, self.dk), dim=-1)
        v = self.v_conv(self.v_proj(x)).view(B, T, self.h, self.dk)
        alpha = torch.exp(-self.A_log.exp() * F.softplus(self.a_proj(x)))          # (B, T, H)
        beta = torch.sigmoid(self.b_proj(x))
        S = x.new_zeros(B, self.h, self.dk, self.dk)
        eye = torch.eye(self.dk, dtype=x.dtype, device=x.device)
        outs = []
        for t in range(T):
            kt, vt, qt = k[:, t], v[:, t], q[:, t]
            a, b = alpha[:, t, :, None, None], beta[:, t, :, None, None]
            S = a * S @ (eye - b * kt.unsqueeze(-1) * kt.unsqueeze(-2)) + b * vt.unsqueeze(-1) * kt.unsqueeze(-2)
            outs.append((S @ qt.unsqueeze(-1)).squeeze(-1))
        o = self.o_norm(torch.stack(outs, dim=1))                                   # (B, T, H, dk)
        o = o.reshape(B, T, D) * F.silu(self.g_proj(x))
        return self.o_proj(o)


class DeltaNetLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=2, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mixers = nn.ModuleList([GatedDeltaNet(dim, heads) for _ in range(depth)])
        self.mlps = nn.ModuleList([nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))
                                   for _ in range(depth)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        x = self.emb(ids)
        for n, mix, mlp in zip(self.norms, self.mixers, self.mlps):
            x = x + mix(n(x))
            x = x + mlp(x)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = DeltaNetLM().eval()
    return model, (torch.randint(0, 64, (2, 16)),)
