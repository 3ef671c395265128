import math
import torch
import torch.nn as nn


def alibi_slopes(n_heads):
    start = 2 ** (-8.0 / n_heads)
    return torch.tensor([start ** (h + 1) for h in range(n_heads)])


class ALiBiAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.Wqkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.Wo = nn.Linear(d_model, d_model, bias=False)
        self.register_buffer("slopes", alibi_slopes(n_heads), persistent=False)

    def forward(self, x):
        B, T, D = x.shape
        qkv = self.Wqkv(x).view(B, T, 3, self.n_heads, self.head_dim)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)
        logits = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(self.head_dim)
        pos = torch.arange(T, device=x.device)
        dist = (pos[:, None] - pos[None, :]).float()
        bias = -self.slopes[:, None, None] * dist
        bias = bias.masked_fill(dist < 0, float("-inf"))
        probs = torch.softmax(logits + bias, dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", probs, v)
        out = out.permute(0, 2, 1, 3).reshape(B, T, D)
        return self.Wo(out)


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.norm_attn = nn.LayerNorm(d)
        self.attn = ALiBiAttention(d, h)
        self.norm_ff = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.norm_attn(x))
        return x + self.ff(self.norm_ff(x))


class ALiBiLM(nn.Module):
    def __init__(self, vocab=64, d=32, h=4, n=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Layer(d, h) for _ in range(n)])
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        x = self.embed(input_ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = ALiBiLM().eval()
    input_ids = torch.randint(0, 64, (3, 7))
    return model, (input_ids,)
