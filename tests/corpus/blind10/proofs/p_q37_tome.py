from lib import *

NAME = "q37_tome"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="per-image bipartite matching, CLS protected, size-weighted merge and proportional attention (log size on keys)",
        label=dict(expected=[], line_sub="attn = attn + size.log()[:, None, None, :, 0]  # proportional attention",
                   also_subs=["scores[..., 0, :] = -math.inf"],
                   why="Matching, merging and proportional attention all act per image; the -inf row only stops the CLS token from being merged (it is not an attention mask); log(size) varies over keys."),
    )
