"""Prefill + decode with a vLLM-style paged KV cache: physical blocks addressed through per-sequence block tables."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PagedKVCache:
    def __init__(self, num_blocks, block_size, heads, head_dim):
        self.block_size = block_size
        self.k = torch.zeros(num_blocks, block_size, heads, head_dim)
        self.v = torch.zeros(num_blocks, block_size, heads, head_dim)

    def write(self, k, v, slot_mapping):
        """k, v: (N, H, dh) for N tokens; slot_mapping: (N,) physical slot of each token"""
        self.k[slot_mapping // self.block_size, slot_mapping % self.block_size] = k
        self.v[slot_mapping // self.block_size, slot_mapping % self.block_size] = v

    def gather(self, block_tables, context_lens):
        k = self.k[block_tables].flatten(1, 2)  # (B, blocks * block_size, H, dh)
        v = self.v[block_tables].flatten(1, 2)
        valid = torch.arange(k.size(1))[None, :] < context_lens[:, None]
        return k.transpose(1, 2), v.transpose(1, 2), valid


def slots_for(block_tables, positions, block_size):
    block = torch.gather(block_tables, 1, positions // block_size)
    return block * block_size + positions % block_size


class Layer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.o = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, cache, slots, keep, attend):
        """attend(q, k, v) does the attention; keep marks the tokens whose k/v go to the cache"""
        B, T, _ = x.shape
        q, k, v = self.qkv(self.norm(x)).view(B, T, 3, self.h, self.dh).unbind(2)
        cache.write(k[keep], v[keep], slots[keep])
        y = attend(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
        x = x + self.o(y.transpose(1, 2).reshape(B, T, -1))
        return x + self.mlp(x)


class PagedLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_pos=32, num_blocks=16, block_size=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_pos, dim)
        self.layers = nn.ModuleList(Layer(dim, heads) for _ in range(layers))
        self.head = nn.Linear(dim, vocab)
        self.cache_shape = (num_blocks, block_size, heads, dim // heads)

    def forward(self, prompt_ids, prompt_lens, new_ids, block_tables):
        B, P = prompt_ids.shape
        bs = self.cache_shape[1]
        caches = [PagedKVCache(*self.cache_shape) for _ in self.layers]
        # prefill: right-padded prompts, causal + key padding mask
        pos = torch.arange(P)[None].expand(B, P)
        real = pos < prompt_lens[:, None]
        slots = slots_for(block_tables, pos, bs)
        mask = torch.tril(torch.ones(P, P, dtype=torch.bool))[None, None] & real[:, None, None, :]
        x = self.embed(prompt_ids) + self.pos(pos)
        for layer, cache in zip(self.layers, caches):
            x = layer(x, cache, slots, real, lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=mask))
        # decode: one token per step per sequence, keys read back through the block tables
        logits = []
        for step in range(new_ids.size(1)):
            p = (prompt_lens + step)[:, None]
            slots = slots_for(block_tables, p, bs)
            x = self.embed(new_ids[:, step : step + 1]) + self.pos(p)
            for layer, cache in zip(self.layers, caches):

                def paged(q, k, v, cache=cache):
                    kc, vc, valid = cache.gather(block_tables, prompt_lens + step + 1)
                    return F.scaled_dot_product_attention(q, kc, vc, attn_mask=valid[:, None, None, :])

                x = layer(x, cache, slots, torch.ones_like(slots, dtype=torch.bool), paged)
            logits.append(self.head(x))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = PagedLM().eval()
    prompt_lens = torch.tensor([9, 5, 2])
    prompt_ids = torch.randint(1, 50, (3, 9))
    prompt_ids[torch.arange(9)[None] >= prompt_lens[:, None]] = 0
    new_ids = torch.randint(1, 50, (3, 3))
    block_tables = torch.randperm(15)[:9].view(3, 3)
    return model, (prompt_ids, prompt_lens, new_ids, block_tables)
