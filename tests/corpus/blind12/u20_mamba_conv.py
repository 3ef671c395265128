"""Jamba-style hybrid LM: a Mamba (selective SSM) layer followed by a causal attention layer.

The Mamba block follows the reference implementation: in_proj to (x, z), a depthwise causal
conv1d over time (padding k-1, cut back to L), SiLU, input-dependent (dt, B, C), a sequential
selective scan, gating with SiLU(z), out_proj.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MambaBlock(nn.Module):
    def __init__(self, d_model, d_state=8, d_conv=4, expand=2):
        super().__init__()
        d_inner = expand * d_model
        self.d_inner, self.d_state = d_inner, d_state
        self.dt_rank = math.ceil(d_model / 16)
        self.in_proj = nn.Linear(d_model, 2 * d_inner, bias=False)
        self.conv1d = nn.Conv1d(d_inner, d_inner, d_conv, groups=d_inner, padding=d_conv - 1)
        self.x_proj = nn.Linear(d_inner, self.dt_rank + 2 * d_state, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, d_inner)
        A = torch.arange(1, d_state + 1).float().repeat(d_inner, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(d_inner))
        self.out_proj = nn.Linear(d_inner, d_model, bias=False)

    def selective_scan(self, u, delta, A, B, C):
        b, L, d = u.shape
        dA = torch.exp(delta[..., None] * A)                      # (b, L, d, n)
        dBu = delta[..., None] * B[:, :, None, :] * u[..., None]  # (b, L, d, n)
        h = torch.zeros(b, d, self.d_state, device=u.device)
        ys = []
        for t in range(L):
            h = dA[:, t] * h + dBu[:, t]
            ys.append((h * C[:, t, None, :]).sum(-1))
        return torch.stack(ys, dim=1) + u * self.D

    def forward(self, hidden):
        L = hidden.size(1)
        x, z = self.in_proj(hidden).chunk(2, dim=-1)
        x = x.transpose(1, 2)                      # (b, d_inner, L)
        x = self.conv1d(x)[..., -L:]
        x = F.silu(x.transpose(1, 2))
        dt, B, C = self.x_proj(x).split([self.dt_rank, self.d_state, self.d_state], dim=-1)
        delta = F.softplus(self.dt_proj(dt))
        y = self.selective_scan(x, delta, -torch.exp(self.A_log), B, C)
        return self.out_proj(y * F.silu(z))


class CausalAttention(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.mha = nn.MultiheadAttention(d_model, heads, bias=False, batch_first=True)

    def forward(self, x):
        L = x.size(1)
        mask = torch.full((L, L), float("-inf"), device=x.device).triu(1)
        return self.mha(x, x, x, attn_mask=mask, need_weights=False)[0]


class HybridLM(nn.Module):
    def __init__(self, vocab=48, d_model=32, heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.norms = nn.ModuleList([nn.RMSNorm(d_model) for _ in range(3)])
        self.mamba = MambaBlock(d_model)
        self.attn = CausalAttention(d_model, heads)
        self.mlp = nn.Sequential(nn.Linear(d_model, 64), nn.SiLU(), nn.Linear(64, d_model))
        self.norm_f = nn.RMSNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, input_ids):
        x = self.embed(input_ids)
        x = x + self.mamba(self.norms[0](x))
        x = x + self.attn(self.norms[1](x))
        x = x + self.mlp(self.norms[2](x))
        return self.lm_head(self.norm_f(x))


def build():
    torch.manual_seed(20)
    model = HybridLM().eval()
    return model, (torch.randint(0, 48, (2, 12)),)
