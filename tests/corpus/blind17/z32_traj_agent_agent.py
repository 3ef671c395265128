"""Agent-agent interaction encoder for multi-agent trajectory prediction.

Scenes have a variable number of agents; missing agents are padded and flagged by
`agent_mask`. Each agent's history is encoded with a GRU, interactions use attention with a
learned relative-position bias computed from pairwise displacements, and invalid agents keep
only themselves as keys so that their rows stay finite (their outputs are ignored).
"""
import math

import torch
import torch.nn as nn


class InteractionAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(d, d) for _ in range(4))
        self.rel = nn.Sequential(nn.Linear(3, d), nn.ReLU(), nn.Linear(d, heads))

    def forward(self, x, pos, agent_mask):
        B, A, D = x.shape
        dh = D // self.heads
        q = self.wq(x).view(B, A, self.heads, dh)
        k = self.wk(x).view(B, A, self.heads, dh)
        v = self.wv(x).view(B, A, self.heads, dh)
        delta = pos[:, None, :, :] - pos[:, :, None, :]  # (B, Aq, Ak, 2)
        rel = torch.cat([delta, delta.norm(dim=-1, keepdim=True)], -1) / 10.0
        logits = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(dh)
        logits = logits + self.rel(rel).permute(0, 3, 1, 2)
        eye = torch.eye(A, dtype=torch.bool, device=x.device)
        allowed = agent_mask[:, None, :] | (eye & ~agent_mask[:, :, None])
        logits = logits.masked_fill(~allowed[:, None], float("-inf"))
        w = logits.softmax(-1)
        return self.wo(torch.einsum("bhqk,bkhd->bqhd", w, v).reshape(B, A, D))


class MultiAgentPredictor(nn.Module):
    def __init__(self, d=32, heads=4, fut=10):
        super().__init__()
        self.fut = fut
        self.inp = nn.Linear(2, d)
        self.gru = nn.GRU(d, d, batch_first=True)
        self.inter = nn.ModuleList([InteractionAttention(d, heads) for _ in range(2)])
        self.norms = nn.ModuleList([nn.LayerNorm(d) for _ in range(2)])
        self.out = nn.Linear(d, 2 * fut)

    def forward(self, history, agent_mask):
        B, A, T, _ = history.shape
        pos = history[:, :, -1]
        vel = torch.diff(history, dim=2, prepend=history[:, :, :1])
        _, h = self.gru(self.inp(vel).reshape(B * A, T, -1))
        x = h[-1].view(B, A, -1)
        for attn, norm in zip(self.inter, self.norms):
            x = norm(x + attn(x, pos, agent_mask))
        return self.out(x).view(B, A, self.fut, 2).cumsum(2) + pos[:, :, None]


def build():
    torch.manual_seed(0)
    history = torch.cumsum(torch.randn(3, 6, 8, 2) * 0.3, 2) + torch.rand(3, 6, 1, 2) * 20
    agent_mask = torch.ones(3, 6, dtype=torch.bool)
    agent_mask[0, 4:] = False
    agent_mask[2, 2:] = False
    model = MultiAgentPredictor().eval()
    return model, (history, agent_mask)
