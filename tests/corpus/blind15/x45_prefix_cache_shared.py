"""Prefix caching for a chat model: the system prompt is prefilled once (batch of one) and its
KV cache is shared by every request in the batch; each request then runs only its own
(right-padded) user tokens against [system cache ; own keys].
"""
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(d, d, bias=False) for _ in range(4))

    def forward(self, x, prefix_kv=None, user_mask=None):
        B, T, D = x.shape
        q = self.wq(x).view(B, T, self.h, self.dh).transpose(1, 2)
        k = self.wk(x).view(B, T, self.h, self.dh).transpose(1, 2)
        v = self.wv(x).view(B, T, self.h, self.dh).transpose(1, 2)
        own = (k, v)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        visible = causal if user_mask is None else causal & user_mask[:, None, None, :].bool()
        if prefix_kv is not None:
            pk, pv = prefix_kv
            P = pk.size(2)
            k = torch.cat([pk.expand(B, -1, -1, -1), k], dim=2)
            v = torch.cat([pv.expand(B, -1, -1, -1), v], dim=2)
            visible = torch.cat([torch.ones_like(visible[..., :1]).expand(*visible.shape[:-1], P), visible], dim=-1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.dh)
        scores = scores.masked_fill(~visible, float("-inf"))
        out = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.wo(out.transpose(1, 2).reshape(B, T, D)), own


class ChatLM(nn.Module):
    def __init__(self, vocab=80, d=32, heads=4, layers=2, max_len=64):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(max_len, d)
        self.attn = nn.ModuleList(Attention(d, heads) for _ in range(layers))
        self.norm1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.norm2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d)) for _ in range(layers))
        self.norm_f, self.lm_head = nn.LayerNorm(d), nn.Linear(d, vocab, bias=False)

    def run(self, ids, start, prefix=None, user_mask=None):
        x = self.tok(ids) + self.pos(torch.arange(start, start + ids.size(1), device=ids.device))
        caches = []
        for l, attn in enumerate(self.attn):
            h, kv = attn(self.norm1[l](x), None if prefix is None else prefix[l], user_mask)
            x = x + h
            x = x + self.mlp[l](self.norm2[l](x))
            caches.append(kv)
        return self.lm_head(self.norm_f(x)), caches

    def forward(self, user_ids, user_mask, system_ids):
        _, prefix = self.run(system_ids, 0)                       # once, batch of one
        logits, _ = self.run(user_ids, system_ids.size(1), prefix, user_mask)
        return logits


def build():
    torch.manual_seed(0)
    model = ChatLM().eval()
    system_ids = torch.randint(0, 80, (1, 7))
    lengths = torch.tensor([9, 6, 3])
    user_mask = (torch.arange(9)[None, :] < lengths[:, None]).long()
    user_ids = torch.randint(1, 80, (3, 9)) * user_mask
    return model, (user_ids, user_mask), {"system_ids": system_ids}
