"""Chess move-prediction transformer over the 64 board squares (Leela-style attention policy).

Each square is a token carrying 12 piece planes plus side-to-move / castling features. Every
attention head has a learned 64x64 bias table over (from-square, to-square) pairs, since
geometry on the board is fixed. The policy is a bilinear from-square x to-square logit map.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SquareAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.wq, self.wk, self.wv = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.wo = nn.Linear(d, d)
        self.square_bias = nn.Parameter(torch.randn(heads, 64, 64) * 0.5)

    def forward(self, x):
        B = x.size(0)
        q = self.wq(x).unflatten(-1, (self.h, self.dk)).transpose(1, 2)
        k = self.wk(x).unflatten(-1, (self.h, self.dk)).transpose(1, 2)
        v = self.wv(x).unflatten(-1, (self.h, self.dk)).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=self.square_bias.unsqueeze(0))
        return self.wo(out.transpose(1, 2).flatten(2))


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn, self.ln1 = SquareAttention(d, heads), nn.LayerNorm(d)
        self.ffn, self.ln2 = nn.Sequential(nn.Linear(d, 4 * d), nn.Mish(), nn.Linear(4 * d, d)), nn.LayerNorm(d)
        self.alpha = 1.0  # post-LN with DeepNorm-style residual gain

    def forward(self, x):
        x = self.ln1(self.alpha * x + self.attn(x))
        return self.ln2(self.alpha * x + self.ffn(x))


class ChessPolicy(nn.Module):
    def __init__(self, planes=16, d=48, heads=4, depth=2):
        super().__init__()
        self.inp = nn.Linear(planes, d)
        self.square_emb = nn.Parameter(torch.randn(64, d) * 0.02)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(depth)])
        self.pol_q = nn.Linear(d, d)
        self.pol_k = nn.Linear(d, d)
        self.value = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, board, legal_mask):  # board: (B, 64, planes), legal_mask: (B, 64, 64)
        x = self.inp(board) + self.square_emb
        for blk in self.blocks:
            x = blk(x)
        logits = torch.einsum("bfd,btd->bft", self.pol_q(x), self.pol_k(x)) / math.sqrt(x.size(-1))
        logits = logits.masked_fill(~legal_mask, float("-inf")).flatten(1)
        policy = F.log_softmax(logits, dim=-1).masked_fill(~legal_mask.flatten(1), 0.0)
        return policy, self.value(x.mean(1))


def build():
    torch.manual_seed(0)
    model = ChessPolicy().eval()
    board = (torch.rand(2, 64, 16) < 0.1).float()
    legal = torch.rand(2, 64, 64) < 0.02
    legal[:, 12, 28] = True
    return model, (board, legal)
