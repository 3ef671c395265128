from lib import *

NAME = "y04_pegasus_doc_classifier"


def result():
    fix_new = ("w = attention_mask.unsqueeze(-1).to(states.dtype)\n"
               "        doc = (states * w).sum(dim=1) / w.sum(dim=1)")
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("doc = states.mean(dim=1)", fix_new)],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 128), whole()),
            "batch": (perturb(0, sample(0, 0), 3, 128), samp(1)),
        },
        label=dict(expected=["padding-leak"], line_sub="doc = states.mean(dim=1)",
                   why="The document vector averages the encoder states of every slot, padding included, so the class logits change with what the pad slots contain and with the amount of padding."),
    )
