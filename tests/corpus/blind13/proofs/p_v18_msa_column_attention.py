from lib import *

NAME = "v18_msa_column_attention"

def result():
    pads = lambda a, k: ~a[1]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("w = torch.softmax(logits, dim=3)", "w = torch.softmax(logits, dim=4)")],
        checks={
            "padding": (perturb(0, pads, 1, 22), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 22), samp(0)),
        },
        note="logits are (B, L, H, S_q, S_k); dim 3 is the query sequences",
        label=dict(expected=["softmax-axis"], also_ok_codes=["padding-leak"],
                   line_sub="w = torch.softmax(logits, dim=3)",
                   why="The column-attention logits are (B, L, H, S_q, S_k) and are contracted with the values over S_k (t). The softmax over dim 3 normalises over the query sequences instead of the keys, so each key's weights are shared out among all query rows, the padded sequences included: the query sequence's predictions change with the content of the padded MSA rows."),
    )
