"""Correct: graph attention (GAT) over the nodes of one undirected graph, neighbours from an adjacency matrix.

Trap for a checker that reads masks as sequences: the adjacency (with self-loops) hides the
non-neighbours, so some rows see a contiguous run of keys that moves with the query (a
path graph's neighbours i - 1 .. i + 1) and looks like a causal row reaching one key ahead.
The mask is symmetric, as an undirected graph's is, so it says nothing about a future.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class GraphAttentionLayer(nn.Module):
    def __init__(self, n_in: int, n_out: int, heads: int):
        super().__init__()
        self.heads, self.n_out = heads, n_out
        self.project = nn.Linear(n_in, heads * n_out, bias=False)
        self.attend_self = nn.Parameter(torch.randn(heads, n_out) * 0.2)
        self.attend_other = nn.Parameter(torch.randn(heads, n_out) * 0.2)

    def forward(self, nodes, adjacency):
        n = nodes.size(0)
        h = self.project(nodes).view(n, self.heads, self.n_out)         # (N, heads, n_out)
        source = (h * self.attend_self).sum(-1)                         # (N, heads)
        target = (h * self.attend_other).sum(-1)
        logits = F.leaky_relu(source[:, None, :] + target[None, :, :], 0.2)   # (i, j, heads)
        logits = logits.masked_fill(adjacency[:, :, None] == 0, float("-inf"))
        alpha = logits.softmax(dim=1)                                  # over the neighbours j
        return torch.einsum("ijh,jhf->ihf", alpha, h).flatten(1)


class GraphNet(nn.Module):
    def __init__(self, n_in: int = 5, hidden: int = 4, n_classes: int = 3):
        super().__init__()
        self.first = GraphAttentionLayer(n_in, hidden, heads=2)
        self.second = GraphAttentionLayer(2 * hidden, n_classes, heads=1)

    def forward(self, nodes, adjacency):
        return self.second(F.elu(self.first(nodes, adjacency)), adjacency)


def build():
    torch.manual_seed(0)
    n = 8
    adjacency = torch.eye(n)
    for a, b in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (0, 4), (2, 7)]:
        adjacency[a, b] = adjacency[b, a] = 1
    return GraphNet().eval(), (torch.randn(n, 5), adjacency)
