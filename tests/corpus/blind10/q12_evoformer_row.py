import math

import torch
import torch.nn as nn


class MSARowAttentionWithPairBias(nn.Module):
    def __init__(self, c_m=32, c_z=16, c_hidden=8, no_heads=4, inf=1e9):
        super().__init__()
        self.h, self.c, self.inf = no_heads, c_hidden, inf
        self.layer_norm_m = nn.LayerNorm(c_m)
        self.layer_norm_z = nn.LayerNorm(c_z)
        self.linear_z = nn.Linear(c_z, no_heads, bias=False)
        self.linear_q = nn.Linear(c_m, no_heads * c_hidden, bias=False)
        self.linear_k = nn.Linear(c_m, no_heads * c_hidden, bias=False)
        self.linear_v = nn.Linear(c_m, no_heads * c_hidden, bias=False)
        self.linear_g = nn.Linear(c_m, no_heads * c_hidden)
        self.linear_o = nn.Linear(no_heads * c_hidden, c_m)

    def forward(self, m, z, mask):
        # m: [*, S, L, c_m]  z: [*, L, L, c_z]  mask: [*, S, L]
        m = self.layer_norm_m(m)
        mask_bias = (self.inf * (mask - 1))[..., :, None, None, :]  # [*, S, 1, 1, L]
        z_bias = self.linear_z(self.layer_norm_z(z)).permute(0, 3, 1, 2).unsqueeze(-4)  # [*, 1, H, L, L]
        q = self.linear_q(m).unflatten(-1, (self.h, self.c)).transpose(-2, -3)  # [*, S, H, L, c]
        k = self.linear_k(m).unflatten(-1, (self.h, self.c)).transpose(-2, -3)
        v = self.linear_v(m).unflatten(-1, (self.h, self.c)).transpose(-2, -3)
        a = torch.matmul(q / math.sqrt(self.c), k.transpose(-1, -2)) + mask_bias + z_bias
        a = torch.softmax(a, dim=-1)
        o = torch.matmul(a, v).transpose(-2, -3)  # [*, S, L, H, c]
        g = torch.sigmoid(self.linear_g(m)).unflatten(-1, (self.h, self.c))
        return self.linear_o((o * g).flatten(-2))


class EvoformerMSAStack(nn.Module):
    def __init__(self, c_m=32, c_z=16, n_blocks=2):
        super().__init__()
        self.row = nn.ModuleList(MSARowAttentionWithPairBias(c_m, c_z) for _ in range(n_blocks))
        self.transition = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(c_m), nn.Linear(c_m, 2 * c_m), nn.ReLU(), nn.Linear(2 * c_m, c_m))
            for _ in range(n_blocks))

    def forward(self, m, z, msa_mask):
        for row, tr in zip(self.row, self.transition):
            m = m + row(m, z, msa_mask)
            m = m + tr(m)
        return m


def build():
    torch.manual_seed(0)
    model = EvoformerMSAStack().eval()
    B, S, L = 2, 4, 10
    m = torch.randn(B, S, L, 32)
    z = torch.randn(B, L, L, 16)
    seq_mask = torch.ones(B, L)
    seq_mask[1, 7:] = 0  # shorter protein, residues padded at the end
    msa_mask = seq_mask[:, None, :].expand(B, S, L).clone()
    return model, (m, z, msa_mask)
