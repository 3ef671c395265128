"""Packed pre-training batch in the flash-attn varlen layout: documents concatenated, cu_seqlens marks the starts.
The varlen kernel is emulated with a document mask built from cu_seqlens."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def doc_ids_from_cu_seqlens(cu_seqlens, total):
    positions = torch.arange(total)
    return torch.searchsorted(cu_seqlens, positions) - 1


def position_ids_from_cu_seqlens(cu_seqlens, total):
    doc = torch.searchsorted(cu_seqlens, torch.arange(total), right=True) - 1
    return torch.arange(total) - cu_seqlens[doc]


class VarlenAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.Wqkv = nn.Linear(dim, 3 * dim)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, x, cu_seqlens):
        total, D = x.shape  # (total_tokens, dim): no batch axis in the varlen layout
        q, k, v = self.Wqkv(x).view(total, 3, self.h, -1).permute(1, 2, 0, 3)
        doc = doc_ids_from_cu_seqlens(cu_seqlens, total)
        same_doc = doc[:, None] == doc[None, :]
        causal = torch.ones(total, total, dtype=torch.bool).tril()
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=same_doc & causal)
        return self.out_proj(y.transpose(0, 1).reshape(total, D))


class PackedLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_pos=24):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_pos, dim)
        self.layers = nn.ModuleList(
            nn.ModuleDict(dict(n1=nn.LayerNorm(dim), attn=VarlenAttention(dim, heads), n2=nn.LayerNorm(dim),
                               mlp=nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))))
            for _ in range(layers)
        )
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids, cu_seqlens):
        total = input_ids.numel()
        x = self.tok(input_ids) + self.pos(position_ids_from_cu_seqlens(cu_seqlens, total))
        for l in self.layers:
            x = x + l["attn"](l["n1"](x), cu_seqlens)
            x = x + l["mlp"](l["n2"](x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    seqlens = torch.tensor([5, 7, 4])
    cu_seqlens = F.pad(torch.cumsum(seqlens, 0), (1, 0))
    input_ids = torch.randint(0, 50, (int(seqlens.sum()),))
    return PackedLM().eval(), (input_ids, cu_seqlens)
