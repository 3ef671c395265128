from lib import *

NAME = "w11_memory_tokens_decoder"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7), 0, 64), upto(7)),
            "causal_in_segment": (perturb(0, after(0, 2), 0, 64), upto(2)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        note="segments of 6: position 7 sits in the second segment whose read memory was written from all of segment 1",
        label=dict(line_sub="memory = x[:, M + S:]",
                   why="The write-memory slots sit after the segment tokens, so under one causal mask they read the whole segment while no segment token reads them; they become the read memory of the next segment, whose tokens all come later. Read memory at the front is visible to every token through the ordinary causal mask. No position sees a later token."),
    )
