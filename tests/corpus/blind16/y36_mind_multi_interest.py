"""MIND (Li et al. 2019) multi-interest user encoder with behaviour-to-interest dynamic routing.

A user's clicked-item history (right-padded, item id 0 = padding) is routed into K interest
capsules. Routing logits b_ij are normalised over the interest capsules j for each item i (the
coupling coefficients), padded items are removed from the capsule sums, and label-aware
attention picks the interests relevant to a target item.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def squash(s, dim=-1, eps=1e-8):
    n2 = (s ** 2).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + eps)


class B2IRouting(nn.Module):
    def __init__(self, dim, num_interests=3, iters=3):
        super().__init__()
        self.K, self.iters = num_interests, iters
        self.S = nn.Linear(dim, dim, bias=False)                   # shared bilinear map
        self.register_buffer("b_init", torch.randn(1, 32, num_interests))

    def forward(self, e, valid):                                   # e: (B, L, d); valid: (B, L)
        B, L, _ = e.shape
        u = self.S(e)                                              # (B, L, d)
        b = self.b_init[:, :L].expand(B, -1, -1)
        m = valid.unsqueeze(-1).to(e.dtype)
        for it in range(self.iters):
            c = b.softmax(dim=-1) * m                              # coupling over interests; padded items off
            caps = squash(torch.einsum("blk,bld->bkd", c, u))      # (B, K, d)
            if it < self.iters - 1:
                b = b + torch.einsum("bkd,bld->blk", caps, u)
        return caps


class MIND(nn.Module):
    def __init__(self, num_items=300, dim=32, num_interests=3, pow_p=2.0):
        super().__init__()
        self.item_emb = nn.Embedding(num_items, dim, padding_idx=0)
        self.routing = B2IRouting(dim, num_interests)
        self.interest_mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))
        self.pow_p = pow_p

    def forward(self, history, target):
        valid = history.ne(0)
        caps = self.routing(self.item_emb(history), valid)
        interests = caps + self.interest_mlp(caps)                 # (B, K, d)
        t = self.item_emb(target)                                  # (B, d)
        att = torch.einsum("bkd,bd->bk", interests, t).pow(self.pow_p).softmax(dim=-1)
        user = torch.einsum("bk,bkd->bd", att, interests)
        return (user * t).sum(-1)                                  # target score


def build():
    torch.manual_seed(0)
    model = MIND().eval()
    lengths = torch.tensor([20, 11, 15, 6])
    history = torch.randint(1, 300, (4, 20)).masked_fill(torch.arange(20)[None] >= lengths[:, None], 0)
    target = torch.randint(1, 300, (4,))
    return model, (history, target)
