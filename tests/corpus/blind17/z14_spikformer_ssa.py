"""Spiking self-attention (Spikformer, Zhou et al. 2023) over a short sequence of sensor tokens.

Q, K and V are spike trains produced by LIF neurons; because all three are non-negative, the
product Q K^T V needs no softmax and is simply multiplied by a constant scale (0.125 in the
paper). The network runs for T simulation steps and averages the output spikes over time.
"""
import torch
import torch.nn as nn


class LIF(nn.Module):
    """Leaky integrate-and-fire neuron with hard reset, unrolled over the leading time axis."""

    def __init__(self, tau=2.0, v_threshold=1.0):
        super().__init__()
        self.tau, self.v_threshold = tau, v_threshold

    def forward(self, x_seq):
        v = torch.zeros_like(x_seq[0])
        spikes = []
        for x in x_seq:
            v = v + (x - v) / self.tau
            s = (v >= self.v_threshold).to(x.dtype)
            v = v * (1.0 - s)
            spikes.append(s)
        return torch.stack(spikes)


class LinearBNLIF(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)
        self.bn = nn.BatchNorm1d(d_out)
        self.lif = LIF()

    def forward(self, x):  # (T, B, N, C)
        T, B, N, _ = x.shape
        y = self.fc(x.flatten(0, 1))
        y = self.bn(y.transpose(1, 2)).transpose(1, 2).reshape(T, B, N, -1)
        return self.lif(y)


class SpikingSelfAttention(nn.Module):
    def __init__(self, dim, heads, scale=0.125):
        super().__init__()
        self.heads, self.scale = heads, scale
        self.q, self.k, self.v = LinearBNLIF(dim, dim), LinearBNLIF(dim, dim), LinearBNLIF(dim, dim)
        self.attn_lif = LIF(v_threshold=0.5)
        self.proj = LinearBNLIF(dim, dim)

    def forward(self, x):
        T, B, N, C = x.shape
        h = self.heads

        def split(t):
            return t.reshape(T, B, N, h, C // h).permute(0, 1, 3, 2, 4)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        attn = (q @ k.transpose(-2, -1)) * self.scale
        y = (attn @ v).permute(0, 1, 3, 2, 4).reshape(T, B, N, C)
        return self.proj(self.attn_lif(y))


class Spikformer(nn.Module):
    def __init__(self, in_dim=6, dim=32, heads=4, depth=2, n_classes=5, T=4):
        super().__init__()
        self.T = T
        self.embed = LinearBNLIF(in_dim, dim)
        self.blocks = nn.ModuleList([SpikingSelfAttention(dim, heads) for _ in range(depth)])
        self.mlp1 = nn.ModuleList([LinearBNLIF(dim, 2 * dim) for _ in range(depth)])
        self.mlp2 = nn.ModuleList([LinearBNLIF(2 * dim, dim) for _ in range(depth)])
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        x = x.unsqueeze(0).repeat(self.T, 1, 1, 1)  # direct encoding: same input every step
        x = self.embed(x)
        for attn, f1, f2 in zip(self.blocks, self.mlp1, self.mlp2):
            x = x + attn(x)
            x = x + f2(f1(x))
        return self.head(x.mean(2).mean(0))


def build():
    torch.manual_seed(0)
    model = Spikformer()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
    model.eval()
    x = torch.randn(3, 10, 6) * 2
    return model, (x,)
