"""Decoder cross-attention sublayer whose residual adds the ENCODER memory instead of the decoder input.

The cross-attention itself is right (decoder queries, encoder keys and values), so its
output has one row per decoder position. The residual then adds `memory`, indexed by
encoder positions: decoder position t is mixed with encoder position t. It runs only
because both sequences have length 5. Fix: `y + attn` where y is the sublayer's decoder input.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("axis-mismatch",)


class CrossAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.d_k = d_model
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)

    def forward(self, y, memory):
        q, k, v = self.W_q(y), self.W_k(memory), self.W_v(memory)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)  # (B, T_dec, T_enc)
        return torch.softmax(scores, dim=-1) @ v  # (B, T_dec, d)


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.cross = CrossAttention(d_model)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, y, memory):
        attn = self.cross(y, memory)
        return self.norm(memory + attn)  # BUG: axis-mismatch


def build():
    torch.manual_seed(0)
    model = DecoderBlock().eval()
    y = torch.randn(2, 5, 16)  # decoder states
    memory = torch.randn(2, 5, 16)  # encoder output, equal length by chance
    return model, (y, memory)
