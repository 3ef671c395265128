"""Small decoder with LoRA adapters (Hu et al., 2021) on the attention projections.
After fine-tuning, the adapters are merged into the base weights for inference.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=4, alpha=8):
        super().__init__()
        self.base = nn.Linear(in_features, out_features, bias=False)
        self.lora_A = nn.Parameter(torch.randn(r, in_features) / math.sqrt(in_features))
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        self.scaling = alpha / r
        self.merged = False

    @torch.no_grad()
    def merge(self):
        if not self.merged:
            self.base.weight += (self.lora_B @ self.lora_A) * self.scaling
            self.merged = True

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling
        return out


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, d_model // n_heads
        self.q_proj = LoRALinear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = LoRALinear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def _shape(self, x, B, T):
        return x.view(B, self.n_heads, T, self.head_dim)

    def forward(self, x):
        B, T, C = x.shape
        q = self._shape(self.q_proj(x), B, T)
        k = self._shape(self.k_proj(x), B, T)
        v = self._shape(self.v_proj(x), B, T)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.ln_1, self.attn = nn.LayerNorm(d_model), CausalSelfAttention(d_model, n_heads)
        self.ln_2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(approximate="tanh"), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class LoRADecoder(nn.Module):
    def __init__(self, vocab=120, d_model=32, n_heads=4, n_layers=2, block_size=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d_model)
        self.wpe = nn.Embedding(block_size, d_model)
        self.h = nn.ModuleList(Block(d_model, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def merge_lora(self):
        for m in self.modules():
            if isinstance(m, LoRALinear):
                m.merge()

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = LoRADecoder()
    for m in model.modules():  # stand-in for a fine-tuned adapter checkpoint
        if isinstance(m, LoRALinear):
            nn.init.normal_(m.lora_B, std=0.05)
    model.merge_lora()
    model.eval()
    idx = torch.randint(0, 120, (3, 16))
    return model, (idx,)
