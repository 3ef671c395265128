"""RetNet multi-scale retention, parallel form: per-head exponential decay mask instead of a softmax."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def theta_shift(x, sin, cos):
    x1, x2 = x[..., ::2], x[..., 1::2]
    rot = torch.stack((-x2, x1), dim=-1).flatten(-2)
    return x * cos + rot * sin


class RetNetRelPos(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        angle = 1.0 / (10000 ** torch.linspace(0, 1, dim // heads // 2))
        self.register_buffer("angle", angle.unsqueeze(-1).repeat(1, 2).flatten())
        self.register_buffer("decay", torch.log(1 - 2 ** (-5 - torch.arange(heads, dtype=torch.float))))

    def forward(self, T):
        index = torch.arange(T).to(self.decay)
        sin, cos = torch.sin(index[:, None] * self.angle[None]), torch.cos(index[:, None] * self.angle[None])
        distance = (index[:, None] - index[None, :]).float().abs()
        decay_mask = torch.exp(distance * self.decay[:, None, None])
        decay_mask = decay_mask / decay_mask.sum(dim=-1, keepdim=True).sqrt()
        return sin, cos, decay_mask


class MultiScaleRetention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.kd = heads, dim // heads
        self.scaling = self.kd ** -0.5
        self.q_proj, self.k_proj, self.v_proj = (nn.Linear(dim, dim, bias=False) for _ in range(3))
        self.g_proj = nn.Linear(dim, dim, bias=False)
        self.out_proj = nn.Linear(dim, dim, bias=False)
        self.group_norm = nn.LayerNorm(self.kd, elementwise_affine=False)

    def forward(self, x, rel_pos):
        B, T, D = x.shape
        sin, cos, mask = rel_pos
        q = self.q_proj(x).view(B, T, self.h, self.kd).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.h, self.kd).transpose(1, 2) * self.scaling
        v = self.v_proj(x).view(B, T, self.h, self.kd).transpose(1, 2)
        q, k = theta_shift(q, sin, cos), theta_shift(k, sin, cos)
        qk = (q @ k.transpose(-1, -2)) * mask
        qk = qk / qk.detach().abs().sum(dim=-1, keepdim=True).clamp(min=1)
        out = self.group_norm((qk @ v).transpose(1, 2)).reshape(B, T, D)
        return self.out_proj(F.silu(self.g_proj(x)) * out)


class RetNet(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.embed_scale = math.sqrt(dim)
        self.rel_pos = RetNetRelPos(dim, heads)
        self.layers = nn.ModuleList(
            nn.ModuleDict(dict(ln1=nn.LayerNorm(dim), msr=MultiScaleRetention(dim, heads), ln2=nn.LayerNorm(dim),
                               ffn=nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))))
            for _ in range(layers)
        )
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x = self.embed(ids) * self.embed_scale
        rel = self.rel_pos(ids.size(1))
        for l in self.layers:
            x = x + l["msr"](l["ln1"](x), rel)
            x = x + l["ffn"](l["ln2"](x))
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    return RetNet().eval(), (torch.randint(0, 50, (2, 12)),)
