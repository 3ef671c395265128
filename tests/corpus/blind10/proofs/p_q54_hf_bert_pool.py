from lib import *

NAME = "q54_hf_bert_pool"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 5, 60), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 5, 60), samp(0)),
        },
        note="tiny random BertModel (hidden 32) with its own attention_mask (1 = real); wrapper pools CLS + masked mean",
        label=dict(expected=[], line_sub="mean = (h * m).sum(dim=1) / m.sum(dim=1).clamp(min=1e-9)",
                   why="attention_mask is passed with the HF convention (1 = keep) and the mean pool weights only real tokens."),
    )
