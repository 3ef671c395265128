from lib import *

NAME = "a12_traffic_graph_transformer"


def masked_ref(m, x, adj):
    B, N, d = x.shape
    q = m.W_q(x).view(B, N, m.h, m.dk).transpose(1, 2)
    k = m.W_k(x).view(B, N, m.h, m.dk).transpose(1, 2)
    v = m.W_v(x).view(B, N, m.h, m.dk).transpose(1, 2)
    e = (q @ k.transpose(-1, -2)) / math.sqrt(m.dk)
    e = e.masked_fill(adj == 0, float("-inf"))
    return m.W_o((e.softmax(-1) @ v).transpose(1, 2).reshape(B, N, d))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("e = e * adj", "e = e.masked_fill(adj == 0, float(\"-inf\"))")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.layers[0].attn, masked_ref), module_ref(lambda m: m.layers[1].attn, masked_ref)),
        label=dict(expected=["mask-value"], line_sub="e = e * adj",
                   why="Multiplying the scores by the 0/1 adjacency sets non-neighbour logits to 0, which still gets exp(0) weight in the softmax, so every sensor attends to the whole network instead of its neighbours."),
    )
