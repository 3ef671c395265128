"""kNN-augmented attention layer (Memorizing Transformer, Wu et al. 2022), single-softmax variant.

Keys and values of earlier segments live in an external memory. For each query the top-k
memory keys are retrieved and scored together with the local (causal) keys of the current
segment in one softmax.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class KNNAugmentedAttention(nn.Module):
    def __init__(self, dim, heads, topk=4):
        super().__init__()
        self.heads, self.topk = heads, topk
        self.dh = dim // heads
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, mem_k, mem_v):
        # x: (B, T, D); mem_k, mem_v: (B, H, M, dh) cached from earlier segments
        B, T, D = x.shape
        q, k, v = self.to_qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        scale = 1.0 / math.sqrt(self.dh)

        mem_scores = torch.einsum("bhtd,bhmd->bhtm", q, mem_k) * scale
        top_scores, top_idx = mem_scores.topk(self.topk, dim=-1)  # (B, H, T, k)
        top_v = torch.gather(mem_v.unsqueeze(2).expand(-1, -1, T, -1, -1), 3,
                             top_idx.unsqueeze(-1).expand(-1, -1, -1, -1, self.dh))

        local = torch.einsum("bhtd,bhsd->bhts", q, k) * scale
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu()
        local = local.masked_fill(future, float("-inf"))

        weights = torch.cat([top_scores, local], dim=-1).softmax(dim=-1)
        w_mem, w_loc = weights.split([self.topk, T], dim=-1)
        out = torch.einsum("bhtk,bhtkd->bhtd", w_mem, top_v) + w_loc @ v
        return self.to_out(out.transpose(1, 2).reshape(B, T, D))


class MemorizingLM(nn.Module):
    def __init__(self, vocab=256, dim=48, heads=4, seg_len=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(seg_len, dim)
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.local_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.knn_attn = KNNAugmentedAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids, mem_k, mem_v):
        T = ids.size(1)
        x = self.emb(ids) + self.pos(torch.arange(T, device=ids.device))
        causal = nn.Transformer.generate_square_subsequent_mask(T, device=ids.device)
        h = self.ln1(x)
        x = x + self.local_attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        x = x + self.knn_attn(self.ln2(x), mem_k, mem_v)
        x = x + self.ff(self.ln3(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    B, H, M, dh = 2, 4, 24, 12
    model = MemorizingLM().eval()
    ids = torch.randint(0, 256, (B, 16))
    mem_k = torch.randn(B, H, M, dh)
    mem_v = torch.randn(B, H, M, dh)
    return model, (ids, mem_k, mem_v)
