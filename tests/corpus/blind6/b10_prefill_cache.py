"""GQA decoder with a static KV cache that is filled by chunked prefill."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def repeat_kv(x, n_rep):
    # (B, H_kv, T, D) -> (B, H_kv * n_rep, T, D)
    if n_rep == 1:
        return x
    B, H, T, D = x.shape
    return x[:, :, None].expand(B, H, n_rep, T, D).reshape(B, H * n_rep, T, D)


class CachedAttention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = dim // n_heads
        self.q_proj = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.kv_proj = nn.Linear(dim, 2 * n_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * self.head_dim, dim, bias=False)
        shape = (max_batch, n_kv_heads, max_seq, self.head_dim)
        self.register_buffer("k_cache", torch.zeros(shape), persistent=False)
        self.register_buffer("v_cache", torch.zeros(shape), persistent=False)

    def forward(self, x, start):
        B, C, _ = x.shape
        end = start + C
        q = self.q_proj(x).view(B, C, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv_proj(x).view(B, C, 2, self.n_kv_heads, self.head_dim).unbind(2)
        self.k_cache[:B, :, start:end] = k.transpose(1, 2)
        self.v_cache[:B, :, start:end] = v.transpose(1, 2)

        n_rep = self.n_heads // self.n_kv_heads
        keys = repeat_kv(self.k_cache[:B, :, :end], n_rep)
        values = repeat_kv(self.v_cache[:B, :, :end], n_rep)
        out = F.scaled_dot_product_attention(q, keys, values)
        return self.o_proj(out.transpose(1, 2).reshape(B, C, -1))


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


class Layer(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, max_batch, max_seq):
        super().__init__()
        self.input_norm = RMSNorm(dim)
        self.attn = CachedAttention(dim, n_heads, n_kv_heads, max_batch, max_seq)
        self.post_norm = RMSNorm(dim)
        self.gate_up = nn.Linear(dim, 2 * 3 * dim, bias=False)
        self.down = nn.Linear(3 * dim, dim, bias=False)

    def forward(self, x, start):
        x = x + self.attn(self.input_norm(x), start)
        gate, up = self.gate_up(self.post_norm(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(gate) * up)


class PrefillLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_kv_heads=2, n_layers=2, max_batch=4, max_seq=32, chunk=4):
        super().__init__()
        self.chunk = chunk
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_seq, dim)
        self.layers = nn.ModuleList(Layer(dim, n_heads, n_kv_heads, max_batch, max_seq) for _ in range(n_layers))
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        logits = []
        for start in range(0, input_ids.shape[1], self.chunk):
            ids = input_ids[:, start : start + self.chunk]
            h = self.embed(ids) + self.pos(torch.arange(start, start + ids.shape[1]))
            for layer in self.layers:
                h = layer(h, start)
            logits.append(self.lm_head(self.norm(h)))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = PrefillLM().eval()
    input_ids = torch.randint(0, 64, (2, 8))
    return model, (input_ids,)
