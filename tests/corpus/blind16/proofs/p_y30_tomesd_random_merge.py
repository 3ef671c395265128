from lib import *

NAME = "y30_tomesd_random_merge"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("rand_idx = torch.randint(sy * sx, size=(hsy, wsx, 1), device=x.device)",
              "rand_idx = torch.zeros(hsy, wsx, 1, device=x.device, dtype=torch.int64)")],
        checks={"batch": (perturb(0, sample(0, 0)), samp(1))},
        label=dict(expected=["nondeterministic"], line_sub="rand_idx = torch.randint(sy * sx, size=(hsy, wsx, 1), device=x.device)",
                   why="The destination token of each 2x2 cell is drawn with torch.randint on every forward pass, including in eval, so which tokens get merged, and therefore the output, changes from one inference call to the next."),
    )
