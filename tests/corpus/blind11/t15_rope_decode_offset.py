"""Llama-style decoder generating with a KV cache: prefill the prompt, then one token per step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache:
    def __init__(self, n_layers):
        self.k, self.v = [None] * n_layers, [None] * n_layers

    def get_seq_length(self, layer_idx=0):
        return 0 if self.k[layer_idx] is None else self.k[layer_idx].size(-2)

    def update(self, k, v, layer_idx):
        if self.k[layer_idx] is not None:
            k = torch.cat([self.k[layer_idx], k], dim=-2)
            v = torch.cat([self.v[layer_idx], v], dim=-2)
        self.k[layer_idx], self.v[layer_idx] = k, v
        return k, v


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def rope_cos_sin(position_ids, head_dim, base=10000.0):
    inv_freq = 1.0 / base ** (torch.arange(0, head_dim, 2).float() / head_dim)
    freqs = position_ids.float()[:, None] * inv_freq[None]
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


class Attention(nn.Module):
    def __init__(self, dim, heads, layer_idx):
        super().__init__()
        self.h, self.hd, self.layer_idx = heads, dim // heads, layer_idx
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (nn.Linear(dim, dim, bias=False) for _ in range(4))

    def forward(self, x, cache):
        B, T, D = x.shape
        q, k, v = (p(x).view(B, T, self.h, self.hd).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        past = cache.get_seq_length(self.layer_idx)
        position_ids = torch.arange(T)
        cos, sin = rope_cos_sin(position_ids, self.hd)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        k, v = cache.update(k, v, self.layer_idx)
        # queries sit at positions past..past+T-1 of a key axis of length past+T
        allowed = torch.ones(T, past + T, dtype=torch.bool).tril(diagonal=past)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        return self.o_proj(y.transpose(1, 2).reshape(B, T, D))


class Layer(nn.Module):
    def __init__(self, dim, heads, idx):
        super().__init__()
        self.ln1, self.ln2 = nn.RMSNorm(dim), nn.RMSNorm(dim)
        self.attn = Attention(dim, heads, idx)
        self.mlp = nn.Sequential(nn.Linear(dim, 3 * dim, bias=False), nn.SiLU(), nn.Linear(3 * dim, dim, bias=False))

    def forward(self, x, cache):
        x = x + self.attn(self.ln1(x), cache)
        return x + self.mlp(self.ln2(x))


class CachedLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Layer(dim, heads, i) for i in range(n_layers))
        self.norm = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def step(self, ids, cache):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x, cache)
        return self.lm_head(self.norm(x))

    def forward(self, input_ids, prompt_len):
        """teacher-forced generation: logits for every position, the prompt in one pass, then token by token"""
        cache = KVCache(len(self.layers))
        logits = [self.step(input_ids[:, :prompt_len], cache)]
        for t in range(prompt_len, input_ids.size(1)):
            logits.append(self.step(input_ids[:, t : t + 1], cache))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = CachedLM().eval()
    return model, (torch.randint(0, 50, (2, 12)), 7)
