"""Decoder with alternating local (sliding-window) and global causal attention layers, one shared mask builder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build_mask(seq_len, window=None):
    """True = may attend. Global layers: causal. Local layers: the last `window` tokens."""
    q = torch.arange(seq_len)[:, None]
    k = torch.arange(seq_len)[None, :]
    if window is None:
        return k <= q
    return (q - k).abs() < window


class Block(nn.Module):
    def __init__(self, dim, heads, window):
        super().__init__()
        self.heads, self.window = heads, window
        self.ln_1 = nn.LayerNorm(dim)
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)
        self.ln_2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        mask = build_mask(T, self.window)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))
        return x + self.mlp(self.ln_2(x))


class LocalGlobalLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, n_layer=4, window=3, global_every=2, block_size=24):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(block_size, dim)
        self.h = nn.ModuleList(
            Block(dim, heads, None if (i + 1) % global_every == 0 else window) for i in range(n_layer)
        )
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.size(1), device=idx.device))
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = LocalGlobalLM().eval()
    return model, (torch.randint(0, 50, (2, 16)),)
