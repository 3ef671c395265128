from lib import *

NAME = "z23_universal_act"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("p = torch.sigmoid(logit + self.halt_noise * torch.randn_like(logit))", "p = torch.sigmoid(logit)")],
        checks={"batch": (perturb(0, sample(0, 1), 0, 200), samp(0))},
        label=dict(expected=["nondeterministic"], line_sub="p = torch.sigmoid(logit + self.halt_noise * torch.randn_like(logit))",
                   why="Gaussian noise is added to the halting logits unconditionally, also in eval, so the halting step, the remainders and therefore the prediction differ from one forward pass to the next."),
    )
