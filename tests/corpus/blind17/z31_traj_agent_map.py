"""Motion forecasting with agent-to-map cross-attention restricted to a radius.

Agents attend only to valid map polylines whose centre lies within `radius` metres of the
agent's last observed position (as in HiVT / QCNet local encoders). Agent-agent interaction
follows, and a regression head outputs future waypoints.
"""
import math

import torch
import torch.nn as nn


class RadiusCrossAttention(nn.Module):
    def __init__(self, d, heads, radius):
        super().__init__()
        self.h, self.radius = heads, radius
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)

    def forward(self, agents, agent_xy, lanes, lane_xy, lane_valid):
        B, A, D = agents.shape
        P = lanes.size(1)
        dh = D // self.h
        q = self.q(agents).view(B, A, self.h, dh).transpose(1, 2)
        k, v = self.kv(lanes).view(B, P, 2, self.h, dh).permute(2, 0, 3, 1, 4)
        dist = torch.cdist(agent_xy, lane_xy)  # (B, A, P)
        visible = lane_valid[:, None, :] & (dist < self.radius)
        scores = q @ k.transpose(-1, -2) / math.sqrt(dh)
        scores = scores.masked_fill(~visible[:, None], float("-inf"))
        attn = scores.softmax(-1)
        return self.o((attn @ v).transpose(1, 2).reshape(B, A, D))


class AgentMapForecaster(nn.Module):
    def __init__(self, hist=8, fut=12, d=32, heads=4, radius=30.0):
        super().__init__()
        self.fut = fut
        self.agent_enc = nn.Sequential(nn.Linear(hist * 2, d), nn.ReLU(), nn.Linear(d, d))
        self.lane_enc = nn.Sequential(nn.Linear(10 * 2, d), nn.ReLU(), nn.Linear(d, d))
        self.a2m = RadiusCrossAttention(d, heads, radius)
        self.a2a = nn.MultiheadAttention(d, heads, batch_first=True)
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.decoder = nn.Linear(d, fut * 2)

    def forward(self, agent_hist, agent_valid, lanes, lane_valid):
        B, A = agent_hist.shape[:2]
        last = agent_hist[:, :, -1]  # (B, A, 2)
        a = self.agent_enc((agent_hist - last[:, :, None]).flatten(2))
        lane_xy = lanes.mean(2)
        m = self.lane_enc((lanes - lane_xy[:, :, None]).flatten(2))
        a = self.n1(a + self.a2m(a, last, m, lane_xy, lane_valid))
        a = self.n2(a + self.a2a(a, a, a, key_padding_mask=~agent_valid, need_weights=False)[0])
        return self.decoder(a).view(B, A, self.fut, 2) + last[:, :, None]


def build():
    torch.manual_seed(0)
    B, A, P = 2, 5, 8
    agent_hist = torch.cumsum(torch.randn(B, A, 8, 2) * 0.5, 2) + torch.rand(B, A, 1, 2) * 40
    agent_hist[0, 3] += 200.0
    agent_valid = torch.ones(B, A, dtype=torch.bool)
    agent_valid[1, 4] = False
    lanes = torch.cumsum(torch.randn(B, P, 10, 2), 2) + torch.rand(B, P, 1, 2) * 40
    lane_valid = torch.ones(B, P, dtype=torch.bool)
    lane_valid[1, 6:] = False
    model = AgentMapForecaster().eval()
    return model, (agent_hist, agent_valid, lanes, lane_valid)
