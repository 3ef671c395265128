import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, d, d_ff):
        super().__init__()
        self.fc1 = nn.Linear(d, d_ff)
        self.fc2 = nn.Linear(d_ff, d)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class SwitchFFN(nn.Module):
    def __init__(self, d=32, n_experts=4, d_ff=64, capacity_factor=1.0):
        super().__init__()
        self.n_experts = n_experts
        self.capacity_factor = capacity_factor
        self.router = nn.Linear(d, n_experts, bias=False)
        self.experts = nn.ModuleList([Expert(d, d_ff) for _ in range(n_experts)])

    def forward(self, x):
        B, T, D = x.shape
        capacity = math.ceil(self.capacity_factor * T / self.n_experts)
        probs = self.router(x).softmax(dim=-1)
        gate, expert_idx = probs.max(dim=-1)
        onehot = F.one_hot(expert_idx, self.n_experts).reshape(B * T, self.n_experts)
        position_in_expert = (onehot.cumsum(dim=0) - 1) * onehot
        keep = (position_in_expert.sum(dim=-1) < capacity).reshape(B, T)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            sel = (expert_idx == e) & keep
            if sel.any():
                out[sel] = expert(x[sel]) * gate[sel].unsqueeze(-1)
        return out


class SwitchLayer(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(d)
        self.moe = SwitchFFN(d)

    def forward(self, x):
        h = self.norm1(x)
        T = x.shape[1]
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        x = x + self.attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        return x + self.moe(self.norm2(x))


def build():
    torch.manual_seed(0)
    model = SwitchLayer().eval()
    x = torch.randn(2, 8, 32)
    return model, (x,)
