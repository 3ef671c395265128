from lib import *

NAME = "u10_leftpad_decoder"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 50), real(1)),
            "causal": (perturb(0, after(0, 7), 1, 50), upto_real(7, 1)),
            "batch": (perturb(0, sample(0, 1), 1, 50), samp(0)),
        },
        ref=refs(solo(1, n=6, left=True), solo(2, n=3, left=True)),
        label=dict(expected=[], line_sub="allowed = allowed | torch.eye(T, dtype=torch.bool, device=idx.device)",
                   why="Causal AND key-is-real, then the diagonal re-opened: for real queries the diagonal is already allowed, for left-pad queries it avoids an all -inf row (their outputs are garbage but finite and never read by real tokens). Positions come from the mask's cumsum, so each prompt equals itself unpadded."),
    )
