import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)

    def forward(self, x, attention_mask):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=-1)
        q = q.view(B, T, self.h, -1).transpose(1, 2)
        k = k.view(B, T, self.h, -1).transpose(1, 2)
        v = v.view(B, T, self.h, -1).transpose(1, 2)
        w = q @ k.transpose(-1, -2) / (q.size(-1) ** 0.5)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        allowed = causal[None, None] & attention_mask[:, None, None, :].bool()
        allowed = allowed | torch.eye(T, dtype=torch.bool, device=x.device)
        w = w.masked_fill(~allowed, torch.finfo(w.dtype).min)
        w = F.softmax(w, dim=-1)
        y = (w @ v).transpose(1, 2).reshape(B, T, C)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = Attention(d, h)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

    def forward(self, x, attention_mask):
        x = x + self.attn(self.ln_1(x), attention_mask)
        return x + self.mlp(self.ln_2(x))


class LeftPaddedGPT(nn.Module):
    def __init__(self, vocab=50, d=32, h=4, n_layer=2, n_pos=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(n_pos, d)
        self.h = nn.ModuleList([Block(d, h) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        x = self.wte(input_ids) + self.wpe(position_ids)
        for block in self.h:
            x = block(x, attention_mask)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = LeftPaddedGPT().eval()
    pad = 2
    input_ids = torch.tensor([[pad, pad, pad, 11, 7, 23, 40, 5],
                              [19, 3, 8, 30, 44, 12, 6, 9],
                              [pad, pad, pad, pad, pad, 33, 21, 14]])
    attention_mask = (input_ids != pad).long()
    return model, (input_ids, attention_mask)
