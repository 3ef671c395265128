from lib import *

NAME = "t10_navit_packed"


def result():
    first_image = lambda a, k: get(a, k, 1) == 0
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("attn_mask = ~is_pad[:, None, None, :]",
              "attn_mask = (image_ids[:, None, :, None] == image_ids[:, None, None, :]) & ~is_pad[:, None, None, :]")],
        checks={
            # change only the patches of image 0 in every row; the pooled vectors of images 1, 2 must not move
            "batch": (perturb(0, first_image), lambda o, a, k: o[:, 1:]),
            "padding": (perturb(0, where_eq(1, -1)), whole()),
        },
        note="the encoder mask only hides padding: every packed image attends to the other images of its row",
        label=dict(expected=["batch-leak"], line_sub="attn_mask = ~is_pad[:, None, None, :]",
                   also_ok_codes=["padding-leak"],
                   why="Packed images must attend only within their own image (block-diagonal mask from image_ids); the encoder's mask only drops padding, so each image's features and pooled output depend on the other images packed in the same row."),
    )
