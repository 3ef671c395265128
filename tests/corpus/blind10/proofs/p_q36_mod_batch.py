from lib import *

NAME = "q36_mod_batch"


def boost(a, k):
    # another realistic sample for item 1: a high-amplitude recording
    x = a[0].clone()
    x[1] = x[1] * 6.0 - 2.0
    return (x,), k


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("        k = int(self.capacity_factor * B * T)\n        chosen = torch.zeros(B * T, dtype=torch.bool)\n        chosen[scores.flatten().topk(k).indices] = True\n        chosen = chosen.view(B, T)\n",
              "        k = int(self.capacity_factor * T)\n        chosen = torch.zeros(B, T, dtype=torch.bool)\n        chosen.scatter_(1, scores.topk(k, dim=1).indices, True)\n")],
        checks={"batch": (boost, samp(0)), "batch_random": (perturb(0, sample(0, 1)), samp(0))},
        note="top-k over the flattened batch*time scores: which tokens of sample 0 get processed depends on sample 1's scores",
        label=dict(expected=["batch-leak"], line_sub="chosen[scores.flatten().topk(k).indices] = True",
                   also_subs=["k = int(self.capacity_factor * B * T)"],
                   why="The routing budget is chosen by a top-k over all B*T tokens at once, so one sample's router scores decide which tokens of the other samples are processed."),
    )
