"""Decoder trained on packed sequences: several documents share one row."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def document_causal_mask(document_ids):
    # document_ids: (B, T) -> (B, 1, T, T) bool, True where attention is allowed
    T = document_ids.shape[1]
    same_doc = document_ids[:, :, None] == document_ids[:, None, :]
    causal = torch.ones(T, T, dtype=torch.bool, device=document_ids.device).tril()
    return (same_doc & causal).unsqueeze(1)


def document_positions(document_ids):
    # position of each token inside its own document
    B, T = document_ids.shape
    idx = torch.arange(T, device=document_ids.device).expand(B, T)
    is_start = torch.ones_like(document_ids, dtype=torch.bool)
    is_start[:, 1:] = document_ids[:, 1:] != document_ids[:, :-1]
    start_idx = torch.where(is_start, idx, torch.zeros_like(idx)).cummax(dim=1).values
    return idx - start_idx


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x, mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.proj(out.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, n_heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, mask):
        x = x + self.attn(self.norm1(x), mask)
        return x + self.mlp(self.norm2(x))


class PackedLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, document_ids):
        mask = document_causal_mask(document_ids)
        x = self.tok(input_ids) + self.pos(document_positions(document_ids))
        for blk in self.blocks:
            x = blk(x, mask)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = PackedLM().eval()
    input_ids = torch.randint(0, 64, (2, 12))
    document_ids = torch.tensor([[0] * 5 + [1] * 4 + [2] * 3, [0] * 7 + [1] * 5])
    return model, (input_ids, document_ids)
