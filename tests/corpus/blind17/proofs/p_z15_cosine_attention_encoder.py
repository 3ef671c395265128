from lib import *

NAME = "z15_cosine_attention_encoder"


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("        attn = sim.softmax(dim=-1)\n        attn = attn * attention_mask[:, None, None, :].to(attn.dtype)\n",
              "        sim = sim.masked_fill(attention_mask[:, None, None, :] == 0, float(\"-inf\"))\n        attn = sim.softmax(dim=-1)\n")],
        checks={"padding": (perturb(0, where_eq(1, 0), 1, 500), whole())},
        ref=solo(2, 5, pooled=True),
        label=dict(expected=["mask-after-softmax"], line_sub="attn = attn * attention_mask[:, None, None, :].to(attn.dtype)",
                   also_ok_codes=["padding-leak"],
                   why="The padding keys are zeroed after the softmax without renormalizing, so for padded sentences each row's weights sum to less than 1 and the embedding of a short sentence changes with the amount of padding."),
    )
