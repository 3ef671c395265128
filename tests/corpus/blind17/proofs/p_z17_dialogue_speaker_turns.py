from lib import *

NAME = "z17_dialogue_speaker_turns"


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("return x + self.pe[: x.size(0)]", "return x + self.pe[: x.size(1)].transpose(0, 1)")],
        checks={"batch": (perturb(0, sample(0, 0), 1, 400), samp(1)),
                "padding": (keep, lambda o, a, k: o[a[0] != 0], pad_row(lambda m: m.tok, 0))},
        ref=solo(1),
        label=dict(expected=["positional-axis"], line_sub="return x + self.pe[: x.size(0)]",
                   why="The (max_len, 1, d) table is sliced with x.size(0) on batch-first input, so every token of dialogue b gets position vector b: the encoding varies along the batch and is constant along the sequence."),
    )
