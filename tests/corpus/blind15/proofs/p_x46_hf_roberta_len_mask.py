from lib import *

NAME = "x46_hf_roberta_len_mask"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attention_mask = (torch.arange(T, device=input_ids.device)[None, :] <= lengths[:, None]).long()",
              "attention_mask = (torch.arange(T, device=input_ids.device)[None, :] < lengths[:, None]).long()")],
        checks={
            "padding": (perturb(0, pads, 3, 100), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: ~pads(a, k)), 3, 100), samp(0)),
        },
        ref=refs(solo_cut(1, {0: 11}), solo_cut(2, {0: 7})),
        note="padding = new ids in the padded slots (the first one is unmasked); ref = each review cut to its tokens and classified alone",
        label=dict(expected=["padding-leak"], also_ok_codes=["mask-polarity"],
                   line_sub="attention_mask = (torch.arange(T, device=input_ids.device)[None, :] <= lengths[:, None]).long()",
                   also_subs=[], consequence_codes=[],
                   why="lengths counts the tokens of each review, so the real positions are 0 .. length-1 and the mask must be arange < length. With <= the first <pad> after every shorter review is marked as a real token (attention_mask = 1): every token, <s> included, attends to it, and the class logits change with whatever sits in that padded slot."),
    )
