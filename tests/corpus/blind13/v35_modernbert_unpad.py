"""ModernBERT-style encoder with unpadding.

Real tokens are gathered out of the padded batch with the flat indices of the attention mask,
the layers run on the packed (total_tokens, d) sequence with a block-diagonal mask built from
cu_seqlens, and the result is scattered back into the padded layout. Rotary positions are
taken from one running counter over the packed tokens: rotary attention depends only on
position differences, and inside one sequence the counter advances by one per token.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def rotary(x, pos, base=10000.0):
    dh = x.size(-1)
    inv = 1.0 / base ** (torch.arange(0, dh, 2, dtype=torch.float32) / dh)
    ang = pos[:, None].float() * inv                                   # (N, dh/2)
    cos, sin = ang.cos()[:, None], ang.sin()[:, None]                  # (N, 1, dh/2)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)


class UnpaddedLayer(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.attn_norm, self.mlp_norm = nn.LayerNorm(d, bias=False), nn.LayerNorm(d, bias=False)
        self.Wqkv = nn.Linear(d, 3 * d, bias=False)
        self.Wo = nn.Linear(d, d, bias=False)
        self.Wi = nn.Linear(d, 4 * d, bias=False)
        self.Wout = nn.Linear(2 * d, d, bias=False)

    def forward(self, x, pos, same_seq):
        N, D = x.shape
        q, k, v = self.Wqkv(self.attn_norm(x)).view(N, 3, self.h, self.dh).unbind(1)   # (N, H, dh)
        q, k = rotary(q, pos), rotary(k, pos)
        s = torch.einsum("nhd,mhd->hnm", q, k) / math.sqrt(self.dh)
        s = s.masked_fill(~same_seq, float("-inf"))
        a = torch.einsum("hnm,mhd->nhd", s.softmax(-1), v).reshape(N, D)
        x = x + self.Wo(a)
        g, u = self.Wi(self.mlp_norm(x)).chunk(2, dim=-1)
        return x + self.Wout(F.gelu(g) * u)


class UnpaddedEncoder(nn.Module):
    def __init__(self, vocab=80, d=32, n_layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, padding_idx=0)
        self.emb_norm = nn.LayerNorm(d, bias=False)
        self.layers = nn.ModuleList(UnpaddedLayer(d) for _ in range(n_layers))
        self.final_norm = nn.LayerNorm(d, bias=False)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        indices = torch.nonzero(attention_mask.flatten(), as_tuple=False).flatten()
        seqlens = attention_mask.sum(-1)
        cu_seqlens = F.pad(seqlens.cumsum(0), (1, 0))
        seq_of_token = torch.repeat_interleave(torch.arange(B, device=input_ids.device), seqlens)
        same_seq = seq_of_token[:, None] == seq_of_token[None, :]
        pos = torch.arange(int(cu_seqlens[-1]), device=input_ids.device)
        x = self.emb_norm(self.tok(input_ids.flatten()[indices]))          # (N, d)
        for layer in self.layers:
            x = layer(x, pos, same_seq)
        x = self.final_norm(x)
        out = torch.zeros(B * T, x.size(-1), dtype=x.dtype, device=x.device)
        out[indices] = x
        return out.view(B, T, -1)


def build():
    torch.manual_seed(0)
    model = UnpaddedEncoder().eval()
    ids = torch.randint(1, 80, (3, 9))
    mask = torch.ones(3, 9, dtype=torch.long)
    mask[0, 6:] = 0
    mask[1, 8:] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
