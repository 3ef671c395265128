"""T5-style encoder written by hand: bucketed bidirectional relative-position bias computed in the
first layer and shared by all layers, RMS layer norm, padded inputs."""
import math

import torch
import torch.nn as nn


def relative_position_bucket(relative_position, num_buckets=32, max_distance=128):
    num_buckets //= 2  # bidirectional: half the buckets for keys after the query
    ret = (relative_position > 0).long() * num_buckets
    n = relative_position.abs()
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (
        torch.log(n.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    val_if_large = torch.min(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
    return ret + torch.where(is_small, n, val_if_large)


class T5LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


class T5SelfAttention(nn.Module):
    def __init__(self, d, heads, has_bias, num_buckets=16, max_distance=32):
        super().__init__()
        self.heads, self.dh = heads, d // heads
        self.num_buckets, self.max_distance = num_buckets, max_distance
        self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
        self.relative_attention_bias = nn.Embedding(num_buckets, heads) if has_bias else None

    def compute_bias(self, T, device):
        context = torch.arange(T, device=device)[:, None]
        memory = torch.arange(T, device=device)[None, :]
        buckets = relative_position_bucket(memory - context, self.num_buckets, self.max_distance)
        return self.relative_attention_bias(buckets).permute(2, 0, 1).unsqueeze(0)  # (1, H, Tq, Tk)

    def forward(self, x, mask_bias, position_bias=None):
        B, T, D = x.shape
        sh = lambda t: t.view(B, T, self.heads, self.dh).transpose(1, 2)
        q, k, v = sh(self.q(x)), sh(self.k(x)), sh(self.v(x))
        if position_bias is None:
            position_bias = self.compute_bias(T, x.device) + mask_bias
        scores = q @ k.transpose(3, 2) / math.sqrt(self.dh) + position_bias
        attn = scores.float().softmax(dim=-1).type_as(scores)
        return self.o((attn @ v).transpose(1, 2).reshape(B, T, D)), position_bias


class T5Block(nn.Module):
    def __init__(self, d, heads, has_bias):
        super().__init__()
        self.ln1, self.ln2 = T5LayerNorm(d), T5LayerNorm(d)
        self.attn = T5SelfAttention(d, heads, has_bias)
        self.wi, self.wo = nn.Linear(d, 2 * d, bias=False), nn.Linear(2 * d, d, bias=False)

    def forward(self, x, mask_bias, position_bias):
        h, position_bias = self.attn(self.ln1(x), mask_bias, position_bias)
        x = x + h
        return x + self.wo(torch.relu(self.wi(self.ln2(x)))), position_bias


class T5Encoder(nn.Module):
    def __init__(self, vocab=120, d=32, heads=4, layers=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(T5Block(d, heads, has_bias=(i == 0)) for i in range(layers))
        self.final_norm = T5LayerNorm(d)

    def forward(self, input_ids, attention_mask):
        mask_bias = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        x, position_bias = self.embed(input_ids), None
        for blk in self.blocks:
            x, position_bias = blk(x, mask_bias, position_bias)
        return self.final_norm(x)


def build():
    torch.manual_seed(0)
    model = T5Encoder().eval()
    attention_mask = (torch.arange(24)[None] < torch.tensor([24, 17, 9])[:, None]).long()
    input_ids = torch.randint(2, 120, (3, 24)) * attention_mask
    return model, (input_ids, attention_mask)
