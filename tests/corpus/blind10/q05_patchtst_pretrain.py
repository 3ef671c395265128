import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoid_table(max_len, d_model):
    pe = torch.zeros(max_len, d_model)
    position = torch.arange(0, max_len).unsqueeze(1).float()
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * -(math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe.unsqueeze(1)  # [max_len, 1, d_model]


class PatchMaskPretrainer(nn.Module):
    """Channel-independent patch encoder trained by reconstructing masked patches."""

    def __init__(self, n_vars=3, patch_len=6, d_model=32, n_heads=4, n_layers=2, max_len=64, dropout=0.1):
        super().__init__()
        self.patch_len = patch_len
        self.embed = nn.Linear(patch_len, d_model)
        self.mask_token = nn.Parameter(torch.zeros(d_model))
        self.register_buffer("pe", sinusoid_table(max_len, d_model))
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 2 * d_model, dropout, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.recon = nn.Linear(d_model, patch_len)

    def patchify(self, x):  # [B, L, C] -> [B*C, N, P]
        B, L, C = x.shape
        p = x.permute(0, 2, 1).reshape(B * C, L // self.patch_len, self.patch_len)
        return p

    def forward(self, x, patch_mask):
        B, L, C = x.shape
        mean = x.mean(1, keepdim=True)
        std = x.std(1, keepdim=True, unbiased=False) + 1e-5
        patches = self.patchify((x - mean) / std)
        tok = self.embed(patches)
        m = patch_mask.reshape(B * C, -1, 1).to(tok.dtype)
        tok = tok * (1 - m) + self.mask_token * m
        tok = tok + self.pe[: tok.size(0)]
        h = self.encoder(tok)
        rec = self.recon(h)
        return rec.reshape(B, C, -1, self.patch_len)


def build():
    torch.manual_seed(0)
    model = PatchMaskPretrainer().eval()
    B, L, C = 2, 36, 3
    t = torch.linspace(0, 6.0, L)
    x = torch.stack([torch.sin(t * (c + 1)) for c in range(C)], -1).repeat(B, 1, 1)
    x = x + 0.05 * torch.randn(B, L, C)
    patch_mask = torch.rand(B, C, L // 6) < 0.4
    return model, (x, patch_mask)
