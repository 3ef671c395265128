from lib import *

NAME = "w04_graph_adjacency_bias"

pads = lambda a, k: ~a[3]
real_nodes = lambda o, a, k: o[a[3]]


def cut_ref(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        x, adj, e, m = args
        one = run(model, (x[i:i+1, :n], adj[i:i+1, :n, :n], e[i:i+1, :n, :n], m[i:i+1, :n]), {})
        return maxdiff(full[i:i+1, :n], one)
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, pads), perturb(2, lambda a, k: ~a[3][:, None, :] | ~a[3][:, :, None])), real_nodes),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(cut_ref(1, 6), cut_ref(2, 8)),
        note="ref = each graph cut to its real nodes and run alone",
        label=dict(line_sub="bias = bias.masked_fill(~adj[:, None], float(\"-inf\"))",
                   why="The adjacency is a two-dimensional (query, key) mask: it is restricted to real node pairs, self-loops keep every row non-empty, and it becomes a -inf additive bias for SDPA before the softmax. Real nodes never read padded nodes; a mask that varies over the query axis is correct here because it is a pairwise adjacency, not a padding vector."),
    )
