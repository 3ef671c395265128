from lib import *

NAME = "u18_packed_gru_attention"
pads = lambda a, k: torch.arange(get(a, k, 0).size(1))[None] >= get(a, k, 1)[:, None]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads, 1, 50), whole()),
            "causal": (perturb(2, after(2, 2), 1, 40), upto(2)),
            "batch": (perturb(0, sample(0, 1), 1, 50), samp(0)),
        },
        ref=refs(solo(1, n=5, pooled=True), solo(2, n=2, pooled=True)),
        label=dict(expected=[], line_sub="align = F.softmax(score, dim=1)",
                   why="The encoder packs by length, so neither GRU direction reads padding; the attention score table is (B, S) and the softmax over dim=1 is over source positions (the key axis), with padded positions set to -inf. Each sentence pair equals the source alone."),
    )
