from lib import *

NAME = "y15_donut_ocr_decoder"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("probs = scores.softmax(dim=-1)\n        if causal:\n            keep = torch.tril(torch.ones(T, T, device=x.device))\n            probs = probs * keep",
              "if causal:\n            keep = torch.tril(torch.ones(T, T, device=x.device))\n            scores = scores.masked_fill(keep == 0, float('-inf'))\n        probs = scores.softmax(dim=-1)")],
        checks={"causal": (perturb(1, after(1, 7), 0, 120), upto(7)),
                "batch": (perturb(1, sample(1, 0), 0, 120), samp(1))},
        label=dict(expected=["mask-after-softmax"], line_sub="probs = probs * keep",
                   consequence_codes=["causal-leak"],
                   why="The causal triangle is multiplied into the probabilities after the softmax, so future keys still enter each row's normaliser: the weights of a prefix depend on later tokens and no longer sum to one."),
    )
