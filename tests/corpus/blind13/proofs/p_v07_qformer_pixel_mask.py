from lib import *

NAME = "v07_qformer_pixel_mask"

def result():
    pads = where_eq(1, 0)
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attn_mask=patch_mask[:, None, None, :] == 0)", "attn_mask=patch_mask[:, None, None, :] == 1)")],
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="SDPA's boolean mask is True where attention is allowed; patch_mask == 0 selects the padding",
        label=dict(expected=["mask-polarity"], also_ok_codes=["padding-leak"], consequence_codes=["fully-masked-row"],
                   line_sub="attn_mask=patch_mask[:, None, None, :] == 0)",
                   why="For scaled_dot_product_attention a boolean attn_mask means True = take part in attention. patch_mask == 0 is True on the padded patches, so the queries read only the padding of each image; the unpadded image has every key masked (SDPA returns zeros). The embedding depends on the padding content and ignores the image."),
    )
