from lib import *

NAME = "t18_gated_attention"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 50), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=solo(2),
        note="q and gate come from one projection split per head; the sigmoid gate multiplies the merged attention output",
        label=dict(expected=[], line_sub="return self.o_proj(out * torch.sigmoid(gate))",
                   why="Gated attention: a per-position sigmoid gate (from the query projection, split per head then merged the same way as the output) scales the causal SDPA output; no mask is needed beyond is_causal with Tq == Tk."),
    )
