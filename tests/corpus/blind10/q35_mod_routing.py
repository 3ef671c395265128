from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class MoDConfig:
    vocab: int = 50
    d: int = 32
    heads: int = 4
    layers: int = 2
    capacity: int = 4  # tokens per sequence processed by each routed block


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attn = nn.MultiheadAttention(cfg.d, cfg.heads, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(cfg.d), nn.LayerNorm(cfg.d)
        self.mlp = nn.Sequential(nn.Linear(cfg.d, 2 * cfg.d), nn.GELU(), nn.Linear(2 * cfg.d, cfg.d))

    def forward(self, x, pad):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, key_padding_mask=pad, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class MoDLayer(nn.Module):
    """Mixture-of-depths: a router picks the top-`capacity` tokens of each sequence for this block."""

    def __init__(self, cfg):
        super().__init__()
        self.capacity = cfg.capacity
        self.router = nn.Linear(cfg.d, 1)
        self.block = Block(cfg)

    def forward(self, x, valid):
        B, T, D = x.shape
        logits = self.router(x).squeeze(-1).masked_fill(~valid, float("-inf"))
        top = logits.topk(self.capacity, dim=1).indices.sort(dim=1).values  # keep sequence order
        gidx = top[..., None].expand(-1, -1, D)
        sel = torch.gather(x, 1, gidx)
        sel_pad = ~torch.gather(valid, 1, top)
        w = torch.sigmoid(torch.gather(logits, 1, top))[..., None]
        out = self.block(sel, sel_pad)
        return x.scatter(1, gidx, sel + w * (out - sel))


class MoDEncoder(nn.Module):
    def __init__(self, cfg: MoDConfig):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab, cfg.d, padding_idx=0)
        self.pos = nn.Embedding(16, cfg.d)
        self.layers = nn.ModuleList(MoDLayer(cfg) for _ in range(cfg.layers))
        self.norm = nn.LayerNorm(cfg.d)

    def forward(self, ids, attention_mask):
        valid = attention_mask.bool()
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1)))[None]
        for layer in self.layers:
            x = layer(x, valid)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = MoDEncoder(MoDConfig()).eval()
    ids = torch.zeros(3, 12, dtype=torch.long)
    for b, n in enumerate([12, 8, 6]):
        ids[b, :n] = torch.randint(1, 50, (n,))
    return model, (ids, (ids != 0).long())
