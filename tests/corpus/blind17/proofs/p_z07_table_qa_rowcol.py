from lib import *

NAME = "z07_table_qa_rowcol"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("pad = attention_mask.eq(0)[:, None, :, None]", "pad = attention_mask.eq(0)[:, None, None, :]")],
        checks={"padding": (perturb(0, where_eq(1, 0), 1, 150), real(1))},
        label=dict(expected=["mask-axis"], line_sub="pad = attention_mask.eq(0)[:, None, :, None]",
                   why="The padding mask is broadcast along the query axis ([:, None, :, None]) instead of the key axis, so padded query rows are blanked while every real token still attends to the padding tokens of the table."),
    )
