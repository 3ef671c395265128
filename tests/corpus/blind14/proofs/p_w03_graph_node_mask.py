from lib import *

NAME = "w03_graph_node_mask"

pads = lambda a, k: ~a[1]


def cut_ref(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        x, m, spd = args
        one = run(model, (x[i:i+1, :n], m[i:i+1, :n], spd[i:i+1, :n, :n]), {})
        return maxdiff(full[i:i+1], one)
    return ref


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("~node_mask[:, None, :, None]", "~node_mask[:, None, None, :]")],
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(cut_ref(1, 7), cut_ref(2, 9)),
        note="ref = each graph cut to its real nodes (node features, mask and SPD matrix) and run alone",
        label=dict(expected=["mask-axis"], also_ok_codes=["padding-leak"],
                   line_sub="scores = scores.masked_fill(~node_mask[:, None, :, None], torch.finfo(scores.dtype).min)",
                   also_subs=[], consequence_codes=["fully-masked-row"],
                   why="The node mask (B, N) is expanded to (B, 1, N, 1), so it varies over the query axis of the (B, H, N_q, N_k) score table: padded nodes' rows are filled (uniform weights) while every real node attends to all nodes, the padded ones included. The graph prediction changes with the features of padding nodes. It must be node_mask[:, None, None, :] (keys)."),
    )
