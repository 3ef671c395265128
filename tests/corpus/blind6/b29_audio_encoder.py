"""Whisper-like audio encoder: conv stem over log-mel frames, then self-attention."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoids(length, channels, max_timescale=10000):
    log_timescale_increment = math.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))
    scaled_time = torch.arange(length)[:, None] * inv_timescales[None, :]
    return torch.cat([torch.sin(scaled_time), torch.cos(scaled_time)], dim=1)


class MultiHeadAttention(nn.Module):
    def __init__(self, n_state, n_head):
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)
        self.out = nn.Linear(n_state, n_state)

    def forward(self, x):
        B, T, C = x.shape
        q = self.query(x).view(B, self.n_head, T, -1)
        k = self.key(x).view(B, self.n_head, T, -1)
        v = self.value(x).view(B, self.n_head, T, -1)
        scale = (C // self.n_head) ** -0.25
        w = (q * scale) @ (k * scale).transpose(-1, -2)
        w = F.softmax(w.float(), dim=-1).to(q.dtype)
        wv = (w @ v).permute(0, 2, 1, 3).flatten(start_dim=2)
        return self.out(wv)


class ResidualAttentionBlock(nn.Module):
    def __init__(self, n_state, n_head):
        super().__init__()
        self.attn = MultiHeadAttention(n_state, n_head)
        self.attn_ln = nn.LayerNorm(n_state)
        self.mlp = nn.Sequential(nn.Linear(n_state, 4 * n_state), nn.GELU(), nn.Linear(4 * n_state, n_state))
        self.mlp_ln = nn.LayerNorm(n_state)

    def forward(self, x):
        x = x + self.attn(self.attn_ln(x))
        return x + self.mlp(self.mlp_ln(x))


class AudioEncoder(nn.Module):
    def __init__(self, n_mels=16, n_ctx=10, n_state=32, n_head=4, n_layer=2):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, n_state, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(n_state, n_state, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positional_embedding", sinusoids(n_ctx, n_state))
        self.blocks = nn.ModuleList(ResidualAttentionBlock(n_state, n_head) for _ in range(n_layer))
        self.ln_post = nn.LayerNorm(n_state)

    def forward(self, mel):
        # mel: (B, n_mels, frames)
        x = F.gelu(self.conv1(mel))
        x = F.gelu(self.conv2(x))
        x = x.permute(0, 2, 1)
        x = x + self.positional_embedding[: x.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.ln_post(x)


def build():
    torch.manual_seed(0)
    model = AudioEncoder().eval()
    mel = torch.randn(2, 16, 20)
    return model, (mel,)
