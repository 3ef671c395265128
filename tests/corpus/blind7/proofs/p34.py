import torch
from _util import *
N = "c34_graph_attention_a"
R = Report(N, "bug")
mod = load(N)
m, a, _ = fresh(N)
x, adj = a
layer = m.gat1
adjs = adj | torch.eye(8, dtype=torch.bool)
with torch.no_grad():
    B = 2
    h = layer.W(x).view(B, 8, 2, 8)
    e = torch.nn.functional.leaky_relu((h * layer.a_dst).sum(-1).unsqueeze(2) + (h * layer.a_src).sum(-1).unsqueeze(1), 0.2)
    e = e.masked_fill(~adjs.unsqueeze(-1), float("-inf"))
    alpha_model = torch.softmax(e, dim=1)
    ref_alpha = torch.softmax(e, dim=2)
    y = layer(x, adjs)
    ref = torch.einsum("bijh,bjhd->bihd", ref_alpha, h).reshape(B, 8, -1) + layer.bias
R.harm("attention over neighbours does not sum to 1 per node (max |1-sum|)", (alpha_model.sum(2) - 1).abs().max().item())
R.harm("layer output differs from neighbour-softmax reference", md(y, ref))
# one layer: node 0 (neighbours 0,1) must not depend on node 2 (not adjacent to 0)
with torch.no_grad():
    x2 = x.clone(); x2[0, 2] = torch.randn(12) * 3
    y2 = layer(x2, adjs)
R.harm("one layer: node 0 output moves when non-neighbour node 2 changes (sample 0)", md(y[0, 0], y2[0, 0]))
R.done()
