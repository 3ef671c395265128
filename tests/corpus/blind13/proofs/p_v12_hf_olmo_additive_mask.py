from lib import *

NAME = "v12_hf_olmo_additive_mask"

def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attention_mask=extended).logits", "attention_mask=attention_mask).logits")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        note="a 2-D float mask is taken as a keep mask: nonzero (the huge negative) = keep, 0 = drop",
        label=dict(expected=["mask-polarity"], also_ok_codes=["mask-value", "padding-leak"], consequence_codes=["fully-masked-row"],
                   line_sub="attention_mask=extended).logits",
                   also_subs=["extended = (1.0 - attention_mask.float()) * torch.finfo(torch.float32).min"],
                   why="transformers expects the 2-D attention_mask with 1 = real token and builds the additive/boolean mask itself; a 2-D float mask is read the same way (nonzero = keep). The additive form is 0 on real tokens and finfo.min on padding, i.e. the inverted convention: real tokens are hidden and the padding is visible, and a sample without padding has every key masked. Real positions' scores change with the pad tokens."),
    )
