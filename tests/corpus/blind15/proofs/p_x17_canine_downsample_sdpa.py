from lib import *

NAME = "x17_canine_downsample_sdpa"

pads = lambda a, k: ~a[1]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("mol = blk(mol, mol_pad[:, None, None, :])", "mol = blk(mol, ~mol_pad[:, None, None, :])")],
        checks={
            "padding": (perturb(0, pads, 1, 256), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1]), 1, 256), samp(0)),
        },
        ref=refs(solo_cut(1, {0: 16, 1: 16}), solo_cut(2, {0: 8, 1: 8})),
        note="padding = new bytes in the padded tail; ref = each text cut to its bytes and classified alone (it then has no padded molecule)",
        label=dict(expected=["mask-polarity"], also_ok_codes=["padding-leak"],
                   line_sub="mol = blk(mol, mol_pad[:, None, None, :])", also_subs=["mol_pad = ~byte_mask[:, :: self.rate]"],
                   consequence_codes=["fully-masked-row"],
                   why="scaled_dot_product_attention's boolean attn_mask means True = take part in attention. mol_pad is True on padded molecules and is passed unchanged, so every molecule attends only to the padding molecules and never to the real ones; the class changes with the padding bytes, and a text without padding (alone) has every key masked (SDPA then returns zeros for those rows)."),
    )
