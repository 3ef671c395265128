import math

import torch
import torch.nn as nn


def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    ret = 0
    if bidirectional:
        num_buckets //= 2
        ret = (relative_position > 0).long() * num_buckets
        n = relative_position.abs()
    else:
        n = -torch.clamp(relative_position, max=0)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (
        torch.log(n.float().clamp(min=1) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    val_if_large = torch.min(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
    return ret + torch.where(is_small, n, val_if_large)


class T5LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        var = x.float().pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


class T5SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, d_kv, has_relative_bias, num_buckets=8, max_distance=20):
        super().__init__()
        self.h = n_heads
        self.d_kv = d_kv
        self.num_buckets = num_buckets
        self.max_distance = max_distance
        self.q = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.k = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.v = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.o = nn.Linear(n_heads * d_kv, d_model, bias=False)
        if has_relative_bias:
            self.relative_attention_bias = nn.Embedding(num_buckets, n_heads)

    def compute_bias(self, T, device):
        rel = torch.arange(T, device=device)[None, :] - torch.arange(T, device=device)[:, None]
        buckets = relative_position_bucket(rel, True, self.num_buckets, self.max_distance)
        return self.relative_attention_bias(buckets).permute(2, 0, 1).unsqueeze(0)

    def forward(self, x, position_bias, ext_mask):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, self.d_kv).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.d_kv).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.d_kv).transpose(1, 2)
        if position_bias is None:
            position_bias = self.compute_bias(T, x.device) + ext_mask
        scores = torch.matmul(q, k.transpose(3, 2)) + position_bias
        attn = nn.functional.softmax(scores.float(), dim=-1).type_as(scores)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(B, T, -1)
        return self.o(out), position_bias


class T5EncoderStack(nn.Module):
    def __init__(self, vocab=40, d=32, n_heads=4, d_kv=8, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList()
        for i in range(n_layers):
            self.layers.append(nn.ModuleDict({
                "ln1": T5LayerNorm(d), "attn": T5SelfAttention(d, n_heads, d_kv, has_relative_bias=(i == 0)),
                "ln2": T5LayerNorm(d), "wi": nn.Linear(d, 64, bias=False), "wo": nn.Linear(64, d, bias=False)}))
        self.final_ln = T5LayerNorm(d)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids)
        ext = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        bias = None
        for L in self.layers:
            a, bias = L["attn"](L["ln1"](x), bias, ext)
            x = x + a
            x = x + L["wo"](torch.relu(L["wi"](L["ln2"](x))))
        return self.final_ln(x)


def build():
    torch.manual_seed(0)
    model = T5EncoderStack().eval()
    input_ids = torch.randint(0, 40, (2, 12))
    attention_mask = torch.ones(2, 12, dtype=torch.long)
    attention_mask[1, 7:] = 0
    return model, (input_ids, attention_mask)
