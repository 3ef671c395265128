from lib import *

NAME = "x15_pix2struct_patch_mask"

pads = lambda a, k: a[1] == 0
realrows = lambda o, a, k: o[a[1] == 1]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[('mask = rearrange(attention_mask, "b j -> b 1 j 1")', 'mask = rearrange(attention_mask, "b j -> b 1 1 j")')],
        checks={
            "padding": (perturb_cols(0, pads, slice(2, None)), realrows),
            "batch": (perturb_cols(0, both(sample(0, 1), lambda a, k: a[1] == 1), slice(2, None)), samp(0)),
        },
        ref=refs(solo(1, n=12), solo(2, n=6)),
        note="padding = new pixel values in the padded patch rows (their row/column ids stay 0); ref = each image's real patches encoded alone",
        label=dict(expected=["mask-axis"], also_ok_codes=["padding-leak"],
                   line_sub='mask = rearrange(attention_mask, "b j -> b 1 j 1")', also_subs=[],
                   consequence_codes=["fully-masked-row"],
                   why="The patch mask (B, N) over keys is rearranged to (b, 1, j, 1), so in the (b, h, i, j) score table it varies over the query axis: the padded patches' rows are filled (they become uniform), while every real patch attends to all patches, padding included. The encoding of real patches changes with the pixels of the padding rows; the pattern must be 'b j -> b 1 1 j'."),
    )
