from lib import *

NAME = "v35_modernbert_unpad"

def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 80), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 80), samp(0)),
        },
        ref=refs(solo(0, n=6), solo(1, n=8)),
        note="ref = each sequence alone (its rotary counter then starts at 0)",
        label=dict(line_sub="pos = torch.arange(int(cu_seqlens[-1]), device=input_ids.device)",
                   why="The packed tokens carry one global rotary counter, so a later sequence's positions start at the earlier sequences' total length; rotary scores depend only on position differences, which inside one sequence are the usual ones, and the block-diagonal mask keeps sequences apart. Gather and scatter use the same flat indices."),
    )
