from lib import *

NAME = "u50_hf_gpt_bigcode"


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("out = self.lm(input_ids=input_ids, attention_mask=attention_mask)",
              "out = self.lm(input_ids=input_ids, attention_mask=attention_mask, position_ids=(attention_mask.cumsum(-1) - 1).clamp(min=0))")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 64), whole()),
            "batch": (perturb(0, sample(0, 1), 2, 64), samp(0)),
        },
        ref=refs(solo(1, n=7, left=True, pooled=True), solo(2, n=4, left=True, pooled=True)),
        note="without position_ids the model numbers the columns 0..T-1, so a prompt with p pads starts at position p",
        label=dict(expected=["positional-axis"], line_sub="out = self.lm(input_ids=input_ids, attention_mask=attention_mask)",
                   also_ok_codes=["padding-leak"],
                   why="GPT-BigCode adds learned absolute position embeddings and, when no position_ids are given, numbers the columns 0..T-1. With left padding each prompt's first real token then sits at position (number of pads), so the prediction depends on how much padding the prompt got and differs from the prompt alone; generate() passes position_ids from the mask's cumsum, a direct forward call must too. The mask itself is right: pad content is never read."),
    )
