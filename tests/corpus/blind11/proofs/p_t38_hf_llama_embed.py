from lib import *

NAME = "t38_hf_llama_embed"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("embeddings = hidden.mean(dim=1)",
              "embeddings = (hidden * attention_mask[..., None]).sum(1) / attention_mask.sum(1, keepdim=True)")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), whole()),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=solo(2, n=3, pooled=True),
        note="the mean runs over all positions, padded ones included",
        label=dict(expected=["padding-leak"], line_sub="embeddings = hidden.mean(dim=1)",
                   why="Mean pooling over the whole time axis averages the hidden states of pad positions into the embedding; those depend on the pad tokens, and the result differs from the unpadded text."),
    )
