from lib import *

NAME = "a16_hf_squeezebert_intent_attention_pool"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("""        weights = torch.softmax(logits, dim=-1)
        weights = weights * attention_mask.to(weights.dtype)""",
              """        logits = logits.masked_fill(attention_mask == 0, float("-inf"))
        weights = torch.softmax(logits, dim=-1)""")],
        checks={"padding": (perturb(0, where_eq(1, 0), 1, 150), whole())},
        label=dict(expected=["mask-after-softmax"], line_sub="weights = weights * attention_mask.to(weights.dtype)",
                   consequence_codes=["padding-leak"],
                   why="The pooling weights are normalised over all tokens, padding included, and only then multiplied by the mask: the padded tokens' scores still take probability mass from the real ones, so the sentence vector changes with the padding content and no longer is a convex combination."),
    )
