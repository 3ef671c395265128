from lib import *

NAME = "q57_hf_gpt2_lasttok"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("last = hidden[:, -1]",
              "last = hidden[torch.arange(hidden.size(0)), attention_mask.sum(-1) - 1]")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 64), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 2, 64), samp(0)),
        },
        note="right-padded batch scored with hidden[:, -1]: for shorter sequences that is a pad position whose state depends on the pad ids",
        label=dict(expected=["padding-leak"], line_sub="last = hidden[:, -1]",
                   why="With right padding the last column is padding for every sequence but the longest; the reward is read from a pad position instead of the last real (eos) token."),
    )
