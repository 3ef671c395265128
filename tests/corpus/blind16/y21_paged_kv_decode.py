"""Single decode step over a paged KV cache (vLLM-style PagedAttention, reference path).

The cache is a pool of fixed-size pages `(num_pages, page_size, heads, head_dim)`. Each sequence
owns a row of `block_table` listing its pages in order; unused entries are 0 and the slots past
`context_lens` are garbage, both of which the length mask removes. The new token's own K/V is
appended after the cached context.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PagedDecodeAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.o = nn.Linear(dim, dim)

    def gather(self, pages, block_table):
        B, nblk = block_table.shape
        seq = pages[block_table]                                  # (B, nblk, page, H, dh)
        return seq.reshape(B, nblk * pages.size(1), self.h, self.dh).transpose(1, 2)

    def forward(self, x, k_pages, v_pages, block_table, context_lens):
        B, D = x.shape
        q, k_new, v_new = self.qkv(x).view(B, 3, self.h, 1, self.dh).unbind(1)
        k = torch.cat([self.gather(k_pages, block_table), k_new], dim=2)
        v = torch.cat([self.gather(v_pages, block_table), v_new], dim=2)
        L = k.size(2) - 1
        slot = torch.arange(L + 1, device=x.device)
        valid = (slot[None, :] < context_lens[:, None]) | (slot[None, :] == L)       # (B, L+1)
        scores = (q @ k.transpose(-1, -2)) * self.dh ** -0.5                        # (B, H, 1, L+1)
        scores = scores.masked_fill(~valid[:, None, None, :], float("-inf"))
        out = scores.softmax(-1) @ v
        return self.o(out.reshape(B, D))


class DecodeLayer(nn.Module):
    def __init__(self, dim=32, heads=2):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = PagedDecodeAttention(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, k_pages, v_pages, block_table, context_lens):
        x = x + self.attn(self.ln1(x), k_pages, v_pages, block_table, context_lens)
        return x + self.mlp(self.ln2(x))


def build():
    torch.manual_seed(0)
    model = DecodeLayer().eval()
    num_pages, page, H, dh = 10, 4, 2, 16
    k_pages = torch.randn(num_pages, page, H, dh)
    v_pages = torch.randn(num_pages, page, H, dh)
    block_table = torch.tensor([[3, 0, 1, 0],
                                [5, 2, 0, 0],
                                [4, 8, 6, 9]])
    context_lens = torch.tensor([9, 5, 14])
    x = torch.randn(3, 32)
    return model, (x, k_pages, v_pages, block_table, context_lens)
