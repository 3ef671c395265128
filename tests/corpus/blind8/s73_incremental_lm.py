import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.h = n_heads
        self.dh = d // n_heads
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, cache=None):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.h, self.dh).transpose(1, 2)
        k, v = self.kv(x).view(B, T, 2, self.h, self.dh).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        S = k.size(2)
        past = S - T
        att = (q @ k.transpose(-1, -2)) * self.dh ** -0.5
        qi = torch.arange(T, device=x.device)[:, None] + past
        kj = torch.arange(S, device=x.device)[None, :]
        att = att.masked_fill(kj > qi, float("-inf"))
        y = att.softmax(-1) @ v
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.o(y), (k, v)


class Block(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = CachedAttention(d, n_heads)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, cache=None):
        a, new_cache = self.attn(self.ln1(x), cache)
        x = x + a
        x = x + self.mlp(self.ln2(x))
        return x, new_cache


class IncrementalLM(nn.Module):
    def __init__(self, vocab=40, d=32, n_heads=4, n_layers=2, max_len=32, prompt_len=4):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([Block(d, n_heads) for _ in range(n_layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)
        self.prompt_len = prompt_len

    def step(self, ids, start, caches):
        pos = torch.arange(start, start + ids.size(1), device=ids.device)
        x = self.tok(ids) + self.pos(pos)
        new = []
        for blk, c in zip(self.blocks, caches):
            x, c2 = blk(x, c)
            new.append(c2)
        return self.head(self.ln(x)), new

    def forward(self, ids):
        P = self.prompt_len
        logits, caches = self.step(ids[:, :P], 0, [None] * len(self.blocks))
        outs = [logits]
        for t in range(P, ids.size(1)):
            lg, caches = self.step(ids[:, t:t + 1], t, caches)
            outs.append(lg)
        return torch.cat(outs, dim=1)


def build():
    torch.manual_seed(0)
    model = IncrementalLM().eval()
    ids = torch.randint(0, 40, (2, 9))
    return model, (ids,)
