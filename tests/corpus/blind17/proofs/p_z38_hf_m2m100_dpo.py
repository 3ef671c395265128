from lib import *

NAME = "z38_hf_m2m100_dpo"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, where_eq(1, 0), 4, 96), perturb(2, where_eq(3, 0), 4, 96), perturb(4, where_eq(5, 0), 4, 96)), whole()),
            "batch": (perturb(2, sample(2, 1), 4, 96), samp(0)),
        },
        label=dict(line_sub="return self.beta * ((pi_w - ref_w) - (pi_l - ref_l))",
                   why="The margin couples the chosen and rejected sequences of the same example on purpose (that is the DPO objective), never different examples; sequence log-probabilities sum only real label positions and the padded decoder tail is after them in a causal decoder."),
    )
