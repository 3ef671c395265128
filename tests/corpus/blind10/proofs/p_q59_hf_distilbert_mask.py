from lib import *

NAME = "q59_hf_distilbert_mask"


def more_padding(a, k):
    # the same batch padded to a longer bucket (4 extra pad tokens): real-token outputs must not change
    ids = a[0]
    return (torch.cat([ids, ids.new_zeros(ids.size(0), 4)], dim=1),), k


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attention_mask = input_ids.eq(self.pad_token_id).long()",
              "attention_mask = input_ids.ne(self.pad_token_id).long()")],
        checks={
            "padding": (more_padding, whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[0] != 0), 5, 60), samp(0)),
        },
        note="HF attention_mask must be 1 for real tokens; eq(pad) makes only the pads visible. Pad ids cannot be changed without changing the mask, so the padding check pads the batch to a longer bucket",
        label=dict(expected=["mask-polarity"], line_sub="attention_mask = input_ids.eq(self.pad_token_id).long()",
                   consequence_codes=["padding-leak"],
                   why="The wrapper builds the HF attention mask with 1 at padding and 0 at real tokens, so every token attends only to padding."),
    )
