import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class PatchTSTConfig:
    seq_len: int = 32
    pred_len: int = 8
    n_vars: int = 3
    patch_len: int = 8
    stride: int = 4
    d_model: int = 32
    n_heads: int = 4
    d_ff: int = 64
    e_layers: int = 2
    dropout: float = 0.1


class RevIN(nn.Module):
    def __init__(self, n_vars, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.w = nn.Parameter(torch.ones(n_vars))
        self.b = nn.Parameter(torch.zeros(n_vars))

    def norm(self, x):  # x: [bs, seq_len, n_vars]
        self.mean = x.mean(dim=1, keepdim=True).detach()
        self.std = torch.sqrt(x.var(dim=1, keepdim=True, unbiased=False) + self.eps).detach()
        return (x - self.mean) / self.std * self.w + self.b

    def denorm(self, x):
        return (x - self.b) / (self.w + self.eps * self.eps) * self.std + self.mean


class TSTEncoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.h, self.dk = cfg.n_heads, cfg.d_model // cfg.n_heads
        self.W_Q = nn.Linear(cfg.d_model, cfg.d_model)
        self.W_K = nn.Linear(cfg.d_model, cfg.d_model)
        self.W_V = nn.Linear(cfg.d_model, cfg.d_model)
        self.to_out = nn.Linear(cfg.d_model, cfg.d_model)
        self.norm_attn = nn.BatchNorm1d(cfg.d_model)
        self.norm_ffn = nn.BatchNorm1d(cfg.d_model)
        self.ff = nn.Sequential(nn.Linear(cfg.d_model, cfg.d_ff), nn.GELU(), nn.Dropout(cfg.dropout),
                                nn.Linear(cfg.d_ff, cfg.d_model))
        self.drop = nn.Dropout(cfg.dropout)

    def _bn(self, bn, x):
        return bn(x.transpose(1, 2)).transpose(1, 2)

    def forward(self, src):
        bs, n, _ = src.shape
        q = self.W_Q(src).view(bs, n, self.h, self.dk).transpose(1, 2)
        k = self.W_K(src).view(bs, n, self.h, self.dk).permute(0, 2, 3, 1)
        v = self.W_V(src).view(bs, n, self.h, self.dk).transpose(1, 2)
        scores = torch.matmul(q, k) * (self.dk ** -0.5)
        attn = F.softmax(scores, dim=-1)
        out = torch.matmul(self.drop(attn), v).transpose(1, 2).contiguous().view(bs, n, -1)
        src = self._bn(self.norm_attn, src + self.drop(self.to_out(out)))
        return self._bn(self.norm_ffn, src + self.drop(self.ff(src)))


class PatchTST(nn.Module):
    def __init__(self, cfg: PatchTSTConfig):
        super().__init__()
        self.cfg = cfg
        self.revin = RevIN(cfg.n_vars)
        self.n_patches = (cfg.seq_len - cfg.patch_len) // cfg.stride + 2
        self.pad = nn.ReplicationPad1d((0, cfg.stride))
        self.W_P = nn.Linear(cfg.patch_len, cfg.d_model)
        self.W_pos = nn.Parameter(torch.empty(self.n_patches, cfg.d_model).uniform_(-0.02, 0.02))
        self.layers = nn.ModuleList(TSTEncoderLayer(cfg) for _ in range(cfg.e_layers))
        self.head = nn.Linear(self.n_patches * cfg.d_model, cfg.pred_len)

    def forward(self, x):  # x: [bs, seq_len, n_vars]
        x = self.revin.norm(x)
        z = self.pad(x.permute(0, 2, 1))  # [bs, n_vars, seq_len + stride]
        z = z.unfold(dimension=-1, size=self.cfg.patch_len, step=self.cfg.stride)  # [bs, n_vars, n, patch_len]
        bs, nv, n, _ = z.shape
        u = self.W_P(z).reshape(bs * nv, n, -1) + self.W_pos
        for layer in self.layers:
            u = layer(u)
        u = u.reshape(bs, nv, n * self.cfg.d_model)
        y = self.head(u).permute(0, 2, 1)  # [bs, pred_len, n_vars]
        return self.revin.denorm(y)


def build():
    torch.manual_seed(0)
    cfg = PatchTSTConfig()
    model = PatchTST(cfg).eval()
    t = torch.arange(cfg.seq_len, dtype=torch.float32)
    x = torch.stack([torch.sin(t / 3 + p) for p in range(cfg.n_vars)], -1)
    x = x.unsqueeze(0).repeat(2, 1, 1) + 0.1 * torch.randn(2, cfg.seq_len, cfg.n_vars)
    return model, (x,)
