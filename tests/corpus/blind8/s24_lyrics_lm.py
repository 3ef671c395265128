import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoid_table(n_pos, d):
    pos = torch.arange(n_pos, dtype=torch.float32)[:, None]
    i = torch.arange(0, d, 2, dtype=torch.float32)[None, :]
    angle = pos / torch.pow(10000.0, i / d)
    table = torch.zeros(n_pos, d)
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle)
    return table


class MaskedMHA(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.w_qkv = nn.Linear(d_model, 3 * d_model)
        self.w_out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        qkv = self.w_qkv(x).reshape(B, T, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.reshape(3, B * self.n_heads, T, self.d_head)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.d_head)
        mask = torch.triu(torch.ones(T, T, device=x.device))
        scores = scores.masked_fill(mask == 0, float("-inf"))
        attn = F.softmax(scores, dim=-1)
        out = torch.bmm(attn, v).view(B, self.n_heads, T, self.d_head)
        out = out.permute(0, 2, 1, 3).reshape(B, T, D)
        return self.w_out(out)


class DecoderOnly(nn.Module):
    def __init__(self, vocab=36, d_model=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.register_buffer("pe", sinusoid_table(max_len, d_model))
        self.attn = nn.ModuleList([MaskedMHA(d_model, n_heads) for _ in range(n_layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Linear(64, d_model))
                                 for _ in range(n_layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.final = nn.LayerNorm(d_model)
        self.lm = nn.Linear(d_model, vocab)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pe[: tokens.size(1)]
        for a, f, n1, n2 in zip(self.attn, self.ff, self.ln1, self.ln2):
            x = x + a(n1(x))
            x = x + f(n2(x))
        return self.lm(self.final(x))


def build():
    torch.manual_seed(0)
    model = DecoderOnly().eval()
    tokens = torch.randint(0, 36, (2, 7))
    return model, (tokens,)
