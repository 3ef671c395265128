"""Nyström attention whose q and k are EACH scaled by d_h ** -0.5: every score is scaled by 1/d_h, not 1/sqrt(d_h).

Nyströmformer scales q and k by d_h ** -0.25 each, so that the three kernels'
products `q @ k_land^T`, `q_land @ k_land^T` and `q_land @ k^T` carry 1/sqrt(d_h) in all.
Here each operand gets the full d_h ** -0.5, so every score is sqrt(d_h) times too small and
the kernels flatten toward uniform rows (the landmarks, segment means of the scaled rows,
inherit the same factor). Fix: `q, k = q * self.d_head ** -0.25, k * self.d_head ** -0.25`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("scale-factor",)


def iterative_pinv(mat, iters: int = 6):
    eye = torch.eye(mat.shape[-1])
    norm = mat.abs().sum(dim=-2).amax(dim=-1, keepdim=True) * mat.abs().sum(dim=-1).amax(dim=-1, keepdim=True)
    z = mat.transpose(-2, -1) / norm[..., None]
    for _ in range(iters):
        az = mat @ z
        z = 0.25 * z @ (13 * eye - az @ (15 * eye - az @ (7 * eye - az)))
    return z


class NystromAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, landmarks: int = 4):
        super().__init__()
        self.h, self.m = n_heads, landmarks
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.h, self.d_head).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        q, k = q * self.d_head ** -0.5, k * self.d_head ** -0.5  # BUG: scale-factor
        q_land = q.reshape(B, self.h, self.m, T // self.m, self.d_head).mean(dim=-2)
        k_land = k.reshape(B, self.h, self.m, T // self.m, self.d_head).mean(dim=-2)
        kernel_1 = torch.softmax(q @ k_land.transpose(-2, -1), dim=-1)
        kernel_2 = torch.softmax(q_land @ k_land.transpose(-2, -1), dim=-1)
        kernel_3 = torch.softmax(q_land @ k.transpose(-2, -1), dim=-1)
        y = kernel_1 @ iterative_pinv(kernel_2) @ (kernel_3 @ v)
        return x + self.out(y.transpose(1, 2).reshape(B, T, C))


def build():
    torch.manual_seed(0)
    model = NystromAttention().eval()
    return model, (torch.randn(2, 12, 16),)
