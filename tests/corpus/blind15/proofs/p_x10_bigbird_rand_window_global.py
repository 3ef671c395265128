from lib import *

NAME = "x10_bigbird_rand_window_global"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 100), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 100), samp(0)),
        },
        ref=refs(solo(1, n=13), solo(2, n=9)),
        note="ref = each document cut to its tokens and tagged alone",
        label=dict(line_sub="keep = self.pattern[:T, :T][None, None] & attention_mask.bool()[:, None, None, :]",
                   why="The window/global/random pattern is a fixed (query, key) table sliced to T, intersected with the key padding mask (1 = real, broadcast over keys) and passed as SDPA's boolean mask, True = attend. Every row keeps the two global tokens, which are always real, so no row is empty; the random keys come from a seeded generator at construction and do not change between passes."),
    )
