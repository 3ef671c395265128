import math

import torch
import torch.nn as nn


def build_alibi_tensor(attention_mask, num_heads, dtype):
    B, T = attention_mask.shape
    closest = 2 ** math.floor(math.log2(num_heads))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(closest) - 3))), dtype=torch.float32)
    slopes = torch.pow(base, torch.arange(1, 1 + closest, dtype=torch.int32))
    arange_tensor = ((attention_mask.cumsum(dim=-1) - 1) * attention_mask)[:, None, :]
    alibi = slopes[..., None] * arange_tensor
    return alibi.reshape(B, num_heads, 1, T).to(dtype)


class BloomAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h = heads
        self.dh = d // heads
        self.inv_norm_factor = 1.0 / math.sqrt(self.dh)
        self.query_key_value = nn.Linear(d, 3 * d)
        self.dense = nn.Linear(d, d)

    def forward(self, x, alibi, causal_mask):
        B, T, D = x.shape
        fused = self.query_key_value(x).view(B, T, self.h, 3, self.dh)
        q, k, v = fused[..., 0, :], fused[..., 1, :], fused[..., 2, :]
        q = q.transpose(1, 2)
        k = k.transpose(1, 2)
        v = v.transpose(1, 2)
        scores = alibi + (q @ k.transpose(-1, -2)) * self.inv_norm_factor
        scores = scores.masked_fill(causal_mask, torch.finfo(scores.dtype).min)
        probs = torch.softmax(scores, dim=-1, dtype=torch.float32).to(x.dtype)
        out = (probs @ v).transpose(1, 2).reshape(B, T, D)
        return self.dense(out)


class BloomLM(nn.Module):
    def __init__(self, vocab=50, d=32, heads=4, n_layers=2):
        super().__init__()
        self.h = heads
        self.word_embeddings = nn.Embedding(vocab, d)
        self.word_embeddings_layernorm = nn.LayerNorm(d)
        self.blocks = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(d), BloomAttention(d, heads), nn.LayerNorm(d),
                            nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))]) for _ in range(n_layers)]
        )
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        B, T = input_ids.shape
        x = self.word_embeddings_layernorm(self.word_embeddings(input_ids))
        attention_mask = torch.ones(B, T, dtype=torch.long, device=input_ids.device)
        alibi = build_alibi_tensor(attention_mask, self.h, x.dtype)
        causal_mask = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        for n1, attn, n2, mlp in self.blocks:
            x = x + attn(n1(x), alibi, causal_mask)
            x = x + mlp(n2(x))
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = BloomLM().eval()
    input_ids = torch.randint(0, 50, (2, 10))
    return model, (input_ids,)
