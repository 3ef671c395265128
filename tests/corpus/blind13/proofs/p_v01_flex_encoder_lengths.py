from lib import *

NAME = "v01_flex_encoder_lengths"

def result():
    pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("return q_idx < lengths[b]", "return kv_idx < lengths[b]")],
        checks={
            "padding": (perturb(0, pads), lambda o, a, k: o[~pads(a, k)]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="the mask_mod tests the query index against the length, so every real query attends to the padded frames",
        label=dict(expected=["mask-axis"], also_ok_codes=["padding-leak"], line_sub="return q_idx < lengths[b]",
                   also_subs=["block_mask = create_block_mask(keep, B, None, T, T, device=feats.device)"],
                   consequence_codes=["fully-masked-row"],
                   why="A padding rule must hide padded keys (kv_idx >= length). The mask_mod compares q_idx with the length, so it varies over the query axis: real queries see every key, padded frames included, while the padded query rows are emptied (flex_attention returns zeros there). Real frames' outputs change with the padded features."),
    )
