from lib import *

NAME = "q55_hf_bert_meanpool"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("        mean = h.mean(dim=1)\n",
              "        m = attention_mask.unsqueeze(-1).to(h.dtype)\n        mean = (h * m).sum(dim=1) / m.sum(dim=1).clamp(min=1e-9)\n")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 5, 60), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 5, 60), samp(0)),
        },
        note="mean over all positions, including padded ones whose hidden states depend on the pad token ids",
        label=dict(expected=["padding-leak"], line_sub="mean = h.mean(dim=1)",
                   why="The sentence embedding averages the hidden states of every position, padding included, so pad content and padding amount change the pooled output."),
    )
