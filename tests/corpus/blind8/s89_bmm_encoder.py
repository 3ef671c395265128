import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.h = num_heads
        self.d = d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def _split(self, x):
        B, T, _ = x.shape
        return x.view(B, T, self.h, self.d).transpose(1, 2).reshape(B * self.h, T, self.d)

    def forward(self, x, mask):
        B, T, D = x.shape
        q, k, v = self._split(self.w_q(x)), self._split(self.w_k(x)), self._split(self.w_v(x))
        att = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.d)
        mask = mask.unsqueeze(1).repeat_interleave(self.h, dim=0)
        att = att.masked_fill(mask == 0, -1e9)
        att = F.softmax(att, dim=-1)
        ctx = torch.bmm(att, v)
        ctx = ctx.view(B, T, D)
        return self.w_o(ctx)


class EncoderBlock(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.mha = MultiHeadAttention(d_model, num_heads)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))

    def forward(self, x, mask):
        x = self.norm1(x + self.mha(x, mask))
        return self.norm2(x + self.ff(x))


class Encoder(nn.Module):
    def __init__(self, vocab=45, d_model=32, num_heads=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(16, d_model)
        self.blocks = nn.ModuleList([EncoderBlock(d_model, num_heads) for _ in range(2)])

    def forward(self, ids, mask):
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1)))
        for blk in self.blocks:
            x = blk(x, mask)
        return x


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    ids = torch.tensor([[6, 13, 27, 9, 0, 0, 0, 0], [21, 4, 38, 17, 11, 30, 2, 0]])
    mask = (ids != 0).int()
    return model, (ids, mask)
