import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PrefixCausalAttention(nn.Module):
    def __init__(self, d=32, n_head=4, n_prefix=3):
        super().__init__()
        self.n_head, self.head_dim = n_head, d // n_head
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.o_proj = nn.Linear(d, d)
        # learned prefix keys / values (prefix tuning); the base weights are frozen
        self.prefix_k = nn.Parameter(torch.randn(n_head, n_prefix, self.head_dim) * 0.3)
        self.prefix_v = nn.Parameter(torch.randn(n_head, n_prefix, self.head_dim) * 0.3)

    def _shape(self, t, B, T):
        return t.view(B, self.n_head, T, self.head_dim)

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        P = self.prefix_k.size(1)
        q = self._shape(self.q_proj(x), B, T)
        k = self._shape(self.k_proj(x), B, T)
        v = self._shape(self.v_proj(x), B, T)
        k = torch.cat([self.prefix_k.expand(B, -1, -1, -1), k], dim=2)
        v = torch.cat([self.prefix_v.expand(B, -1, -1, -1), v], dim=2)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        allowed = torch.cat([torch.ones(T, P, dtype=torch.bool), causal], dim=1)[None, None]
        key_ok = torch.cat([torch.ones(B, P, dtype=torch.bool), attention_mask.bool()], dim=1)[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed & key_ok)
        return self.o_proj(y.transpose(1, 2).reshape(B, T, D))


class PrefixTunedLM(nn.Module):
    def __init__(self, vocab=60, d=32, layers=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(32, d)
        self.attn = nn.ModuleList(PrefixCausalAttention(d) for _ in range(layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)

    def forward(self, input_ids, attention_mask):
        x = self.wte(input_ids) + self.wpe(torch.arange(input_ids.size(1)))[None]
        for attn, mlp, ln1, ln2 in zip(self.attn, self.mlp, self.ln1, self.ln2):
            x = x + attn(ln1(x), attention_mask)
            x = x + mlp(ln2(x))
        return self.ln_f(x) @ self.wte.weight.t()


def build():
    torch.manual_seed(0)
    model = PrefixTunedLM().eval()
    ids = torch.randint(2, 60, (2, 12))
    mask = torch.ones(2, 12, dtype=torch.long)
    mask[1, 9:] = 0
    ids[1, 9:] = 0
    return model, (ids, mask)
