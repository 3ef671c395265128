from lib import *

NAME = "a02_vqa_mha_region_pooling"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("key_padding_mask=boxes_valid.bool())", "key_padding_mask=~boxes_valid.bool())")],
        checks={
            "padding": (chain(perturb(1, where_eq(3, 0)), perturb(2, where_eq(3, 0))), whole()),
        },
        label=dict(expected=["mask-polarity"], line_sub="key_padding_mask=boxes_valid.bool())",
                   consequence_codes=["padding-leak"],
                   why="boxes_valid is 1 for real detections, but key_padding_mask treats True as 'ignore': the question attends only to the padded slots and the real boxes are hidden."),
    )
