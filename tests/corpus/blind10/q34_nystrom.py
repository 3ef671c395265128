import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def iterative_inv(mat, n_iter=6):
    I = torch.eye(mat.size(-1), device=mat.device)
    K = mat
    col = K.abs().sum(dim=-2).amax(dim=-1)[..., None, None]
    row = K.abs().sum(dim=-1).amax(dim=-1)[..., None, None]
    V = K.transpose(-1, -2) / (col * row)
    for _ in range(n_iter):
        KV = torch.matmul(K, V)
        V = torch.matmul(0.25 * V, 13 * I - torch.matmul(KV, 15 * I - torch.matmul(KV, 7 * I - KV)))
    return V


class NystromAttention(nn.Module):
    def __init__(self, dim=32, heads=4, num_landmarks=4, conv_kernel=3):
        super().__init__()
        self.heads, self.m = heads, num_landmarks
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim)
        self.res_conv = nn.Conv2d(heads, heads, (conv_kernel, 1), padding=(conv_kernel // 2, 0), groups=heads, bias=False)

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = q / math.sqrt(math.sqrt(self.head_dim))
        k = k / math.sqrt(math.sqrt(self.head_dim))
        q_land = q.reshape(B, self.heads, self.m, N // self.m, self.head_dim).mean(dim=-2)
        k_land = k.reshape(B, self.heads, self.m, N // self.m, self.head_dim).mean(dim=-2)
        kernel_1 = F.softmax(q @ k_land.transpose(-1, -2), dim=-1)
        kernel_2 = F.softmax(q_land @ k_land.transpose(-1, -2), dim=-1)
        kernel_3 = F.softmax(q_land @ k.transpose(-1, -2), dim=-1)
        out = kernel_1 @ iterative_inv(kernel_2) @ (kernel_3 @ v)
        out = out + self.res_conv(v)
        out = out.reshape(B, N, D)
        return self.out(out)


class NystromClassifier(nn.Module):
    def __init__(self, in_dim=6, dim=32, depth=2, n_cls=4, seq=16):
        super().__init__()
        self.inp = nn.Linear(in_dim, dim)
        self.pos = nn.Parameter(torch.randn(1, seq, dim) * 0.02)
        self.layers = nn.ModuleList(nn.ModuleList([nn.LayerNorm(dim), NystromAttention(dim), nn.LayerNorm(dim),
                                                   nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))])
                                    for _ in range(depth))
        self.head = nn.Linear(dim, n_cls)

    def forward(self, x):
        h = self.inp(x) + self.pos
        for ln1, attn, ln2, ff in self.layers:
            h = h + attn(ln1(h))
            h = h + ff(ln2(h))
        return self.head(h)


def build():
    torch.manual_seed(0)
    model = NystromClassifier().eval()
    x = torch.randn(2, 16, 6)
    return model, (x,)
