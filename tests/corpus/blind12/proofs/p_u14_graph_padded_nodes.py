from lib import *

NAME = "u14_graph_padded_nodes"


def result():
    pads = lambda a, k: ~get(a, k, 2)
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("loops = torch.diag_embed(node_mask)", "loops = torch.eye(node_mask.size(1), dtype=torch.bool, device=node_mask.device)")],
        checks={
            "padding": (perturb(0, pads, 1, 12), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 12), samp(0)),
        },
        note="padded nodes have no neighbour and no self-loop: their score rows are all -inf, softmax gives NaN, and the NaN values reach real nodes in layer 2 (0 * NaN) and the graph readout",
        label=dict(expected=["nan"], line_sub="loops = torch.diag_embed(node_mask)",
                   also_subs=["attn = torch.softmax(scores, dim=-1)",
                              'scores = scores.masked_fill(~allowed[:, None], float("-inf"))'],
                   also_ok_codes=["fully-masked-row"], consequence_codes=["nan", "fully-masked-row"],
                   why="Self-loops are added only for real atoms, so a padded node's score row is entirely -inf: softmax returns NaN for it, the next layer's real nodes multiply those NaN values by zero weights (still NaN), and every padded graph's prediction is NaN. Self-loops for all nodes keep padded rows finite; their outputs are never read by real nodes."),
    )
