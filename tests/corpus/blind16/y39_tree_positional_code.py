"""Code-summarisation encoder over linearised ASTs with tree positional encodings
(Shiv & Quirk 2019).

A node's position is its root-to-node path: a stack of one-hot child indices (one block of
`max_width` entries per level, most recent level first, zero-padded to `max_depth` levels).
The encoding multiplies each level block by a learned decay p^level and is projected to the
model width. Padding nodes have type 0 and an all-zero path.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def tree_paths(parents, max_depth, max_width):
    """parents: list of parent indices (-1 for root) in pre-order -> (N, max_depth * max_width)"""
    n = len(parents)
    child_rank, counts, paths = [0] * n, {}, []
    for i, p in enumerate(parents):
        if p >= 0:
            child_rank[i] = counts.get(p, 0)
            counts[p] = child_rank[i] + 1
    for i, p in enumerate(parents):
        if p < 0:
            vec = torch.zeros(max_depth, max_width)
        else:
            step = F.one_hot(torch.tensor(min(child_rank[i], max_width - 1)), max_width).float()
            vec = torch.cat([step[None], paths[p][:-1]], dim=0)
        paths.append(vec)
    return torch.stack(paths).flatten(1)


class TreePositionalEncoding(nn.Module):
    def __init__(self, dim, max_depth, max_width):
        super().__init__()
        self.max_depth, self.max_width = max_depth, max_width
        self.p = nn.Parameter(torch.full((1,), 0.7))
        self.proj = nn.Linear(max_depth * max_width, dim, bias=False)

    def forward(self, paths):                                  # (B, N, depth * width)
        levels = torch.arange(self.max_depth, device=paths.device, dtype=paths.dtype)
        decay = torch.tanh(self.p) ** levels                   # (depth,)
        scaled = paths.view(*paths.shape[:-1], self.max_depth, self.max_width) * decay[:, None]
        norm = (1 - torch.tanh(self.p) ** 2).sqrt() * (self.max_width / 2) ** 0.5
        return self.proj(scaled.flatten(-2) * norm)


class ASTEncoder(nn.Module):
    def __init__(self, num_types=40, dim=32, heads=4, layers=2, max_depth=6, max_width=4, summary_vocab=50):
        super().__init__()
        self.type_emb = nn.Embedding(num_types, dim, padding_idx=0)
        self.tree_pos = TreePositionalEncoding(dim, max_depth, max_width)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.to_summary = nn.Linear(dim, summary_vocab)

    def forward(self, node_types, paths):
        pad = node_types.eq(0)
        h = self.encoder(self.type_emb(node_types) + self.tree_pos(paths), src_key_padding_mask=pad)
        return self.to_summary(h)                              # per-node summary-token logits


def build():
    torch.manual_seed(0)
    trees = [[-1, 0, 1, 1, 0, 4, 4, 4, 0, 8, 9, 9],
             [-1, 0, 0, 2, 2, 0, 5],
             [-1, 0, 1, 2, 3, 1, 0, 6, 6]]
    N, D, W = 12, 6, 4
    node_types = torch.zeros(3, N, dtype=torch.long)
    paths = torch.zeros(3, N, D * W)
    for b, parents in enumerate(trees):
        n = len(parents)
        node_types[b, :n] = torch.randint(1, 40, (n,))
        paths[b, :n] = tree_paths(parents, D, W)
    model = ASTEncoder(max_depth=D, max_width=W).eval()
    return model, (node_types, paths)
