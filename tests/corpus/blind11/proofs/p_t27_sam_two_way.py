from lib import *

NAME = "t27_sam_two_way"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1))), samp(0))},
        ref=solo(1, pooled=True),
        note="image-to-token cross-attention uses the image as queries and tokens as keys: softmax over tokens, by design",
        label=dict(expected=[], line_sub="keys = self.norm4(keys + self.cross_attn_image_to_token(k, q, queries))",
                   why="SAM's two-way block attends tokens->image and image->tokens; in the second the image positions are the queries and the prompt tokens the keys, so the softmax over the last axis is over tokens as intended; the mask logits are a token x pixel product, not attention."),
    )
