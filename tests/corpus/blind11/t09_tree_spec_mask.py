"""Speculative decoding verifier (Medusa/EAGLE-style): a draft token tree scored in one pass with a tree mask."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def tree_attention_mask(parents):
    """parents[i] = index of node i's parent in the tree, -1 for children of the last prefix token.
    Returns (N, N) bool: node i may attend to node j iff j is i or one of its ancestors."""
    n = parents.numel()
    mask = torch.eye(n, dtype=torch.bool)
    for i in range(n):
        p = int(parents[i])
        while p >= 0:
            mask[i, p] = True
            p = int(parents[p])
    return mask


def tree_depths(parents):
    depth = torch.zeros_like(parents)
    for i in range(parents.numel()):
        p = int(parents[i])
        depth[i] = 0 if p < 0 else depth[p] + 1
    return depth


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, blocked):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=blocked, need_weights=False)[0]
        return x + self.ff(self.ln2(x))


class TreeVerifier(nn.Module):
    def __init__(self, vocab=40, dim=32, heads=4, layers=2, max_pos=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_pos, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.head = nn.Linear(dim, vocab)

    def forward(self, prefix_ids, tree_ids, parents):
        P, N = prefix_ids.size(1), tree_ids.size(1)
        allowed = torch.ones(P + N, P + N, dtype=torch.bool).tril()
        allowed[P:, P:] = tree_attention_mask(parents)
        positions = torch.cat([torch.arange(P), P + tree_depths(parents)])
        x = self.tok(torch.cat([prefix_ids, tree_ids], dim=1)) + self.pos(positions)
        for blk in self.blocks:
            x = blk(x, ~allowed)  # nn.MultiheadAttention: True = not allowed to attend
        return self.head(x[:, P:])


def build():
    torch.manual_seed(0)
    model = TreeVerifier().eval()
    prefix_ids = torch.randint(0, 40, (2, 6))
    parents = torch.tensor([-1, -1, 0, 0, 1, 2, 4])
    tree_ids = torch.randint(0, 40, (2, 7))
    return model, (prefix_ids, tree_ids, parents)
