"""Object-centric encoder with Slot Attention (Locatello et al. 2020) on a small CNN feature map."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build_grid(resolution):
    ranges = [torch.linspace(0.0, 1.0, steps=r) for r in resolution]
    grid = torch.stack(torch.meshgrid(*ranges, indexing="ij"), dim=-1)
    return torch.cat([grid, 1.0 - grid], dim=-1)


class SoftPositionEmbed(nn.Module):
    def __init__(self, hidden, resolution):
        super().__init__()
        self.dense = nn.Linear(4, hidden)
        self.register_buffer("grid", build_grid(resolution), persistent=False)

    def forward(self, x):  # x: (B, H, W, C)
        return x + self.dense(self.grid)


class SlotAttention(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8, hidden_dim=64):
        super().__init__()
        self.num_slots, self.iters, self.eps = num_slots, iters, eps
        self.scale = dim ** -0.5
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_logsigma = nn.Parameter(torch.zeros(1, 1, dim))
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.gru = nn.GRUCell(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden_dim), nn.ReLU(inplace=True), nn.Linear(hidden_dim, dim))
        self.norm_input = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)
        self.norm_pre_ff = nn.LayerNorm(dim)

    def forward(self, inputs, slot_noise):
        b, n, d = inputs.shape
        slots = self.slots_mu + self.slots_logsigma.exp() * slot_noise
        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            slots_prev = slots
            slots = self.norm_slots(slots)
            q = self.to_q(slots)
            dots = torch.einsum("bid,bjd->bij", q, k) * self.scale
            # slots compete for each input location: normalize over the slot axis, then take a weighted mean
            attn = dots.softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)
            updates = torch.einsum("bjd,bij->bid", v, attn)
            slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d)).reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))
        return slots


class SlotEncoder(nn.Module):
    def __init__(self, resolution=(6, 6), hidden=32, num_slots=4):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, hidden, 3, padding=1), nn.ReLU(), nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU()
        )
        self.pos = SoftPositionEmbed(hidden, resolution)
        self.norm = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.slot_attention = SlotAttention(num_slots, hidden)

    def forward(self, image, slot_noise):
        x = self.conv(image).permute(0, 2, 3, 1)
        x = self.pos(x).flatten(1, 2)
        x = self.mlp(self.norm(x))
        return self.slot_attention(x, slot_noise)


def build():
    torch.manual_seed(0)
    model = SlotEncoder().eval()
    image = torch.randn(3, 3, 6, 6)
    slot_noise = torch.randn(3, 4, 32)
    return model, (image, slot_noise)
