from lib import *

NAME = "w39_ipadapter_dropout"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("probs = F.dropout(probs, p=self.attn_drop)", "probs = F.dropout(probs, p=self.attn_drop, training=self.training)")],
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1)), perturb(2, sample(2, 1))), samp(0))},
        note="two eval-mode passes on the same inputs differ",
        label=dict(expected=["dropout-eval"], also_ok_codes=["nondeterministic"],
                   line_sub="probs = F.dropout(probs, p=self.attn_drop)", also_subs=[], consequence_codes=[],
                   why="F.dropout defaults to training=True, so the attention-probability dropout (p = 0.1) keeps firing after model.eval(): both the text and the image-prompt branches drop and rescale weights at random, and every sampling step of the diffusion model gets a different result for the same input."),
    )
