from lib import *

NAME = "v30_functional_call_ensemble"

def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1), 1, 70), samp(0))},
        ref=solo_cut(1, {0: 5}),
        note="ref = the padded sentence alone, cut to its real tokens (pad mask comes from the ids)",
        label=dict(line_sub="return F.softmax(logits, dim=-1).mean(0)",
                   why="vmap maps functional_call over the stacked member parameters (axis 0 = members), the batch is shared (in_dims None); each member masks padded keys (key_padding_mask True = pad) and pools real tokens only. softmax over classes and the mean over members (axis 0) are by design."),
    )
