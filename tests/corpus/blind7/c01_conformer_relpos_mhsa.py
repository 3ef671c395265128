import math

import torch
import torch.nn as nn


class RelPositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        self.max_len = max_len
        pos = torch.arange(max_len - 1, -max_len, -1.0).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe = torch.zeros(2 * max_len - 1, d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe, persistent=False)

    def forward(self, T):
        c = self.max_len - 1
        return self.pe[c - (T - 1): c + T]


class RelPositionMHSA(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.h = n_head
        self.d_k = d_model // n_head
        self.linear_q = nn.Linear(d_model, d_model)
        self.linear_k = nn.Linear(d_model, d_model)
        self.linear_v = nn.Linear(d_model, d_model)
        self.linear_out = nn.Linear(d_model, d_model)
        self.linear_pos = nn.Linear(d_model, d_model, bias=False)
        self.pos_bias_u = nn.Parameter(torch.randn(n_head, self.d_k) * 0.1)
        self.pos_bias_v = nn.Parameter(torch.randn(n_head, self.d_k) * 0.1)

    @staticmethod
    def rel_shift(x):
        b, h, t, n = x.shape
        zero_pad = x.new_zeros(b, h, t, 1)
        x_padded = torch.cat([zero_pad, x], dim=-1).view(b, h, n + 1, t)
        return x_padded[:, :, 1:].reshape(b, h, t, n)[:, :, :, : n // 2 + 1]

    def forward(self, x, pos_emb, mask):
        B, T, _ = x.shape
        q = self.linear_q(x).view(B, T, self.h, self.d_k)
        k = self.linear_k(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        v = self.linear_v(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        p = self.linear_pos(pos_emb).view(1, -1, self.h, self.d_k).transpose(1, 2)
        q_u = (q + self.pos_bias_u).transpose(1, 2)
        q_v = (q + self.pos_bias_v).transpose(1, 2)
        matrix_ac = q_u @ k.transpose(-2, -1)
        matrix_bd = self.rel_shift(q_v @ p.transpose(-2, -1))
        scores = (matrix_ac + matrix_bd) / math.sqrt(self.d_k)
        scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, T, -1)
        return self.linear_out(out)


class FeedForward(nn.Module):
    def __init__(self, d, mult=4):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d * mult), nn.SiLU(), nn.Linear(d * mult, d))

    def forward(self, x):
        return self.net(x)


class ConformerAttnBlock(nn.Module):
    def __init__(self, d=32, n_head=4):
        super().__init__()
        self.ff1 = FeedForward(d)
        self.norm_mha = nn.LayerNorm(d)
        self.mha = RelPositionMHSA(d, n_head)
        self.ff2 = FeedForward(d)
        self.norm_out = nn.LayerNorm(d)
        self.pos = RelPositionalEncoding(d)

    def forward(self, x, lengths):
        B, T, _ = x.shape
        mask = torch.arange(T, device=x.device)[None, :] < lengths[:, None]
        pos_emb = self.pos(T)
        x = x + 0.5 * self.ff1(x)
        x = x + self.mha(self.norm_mha(x), pos_emb, mask)
        x = x + 0.5 * self.ff2(x)
        x = self.norm_out(x)
        return x * mask.unsqueeze(-1)


def build():
    torch.manual_seed(0)
    model = ConformerAttnBlock(32, 4).eval()
    x = torch.randn(2, 10, 32)
    lengths = torch.tensor([10, 6])
    return model, (x, lengths)
