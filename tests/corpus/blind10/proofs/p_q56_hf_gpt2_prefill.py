from lib import *

NAME = "q56_hf_gpt2_prefill"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 64), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 1, 64), samp(0)),
        },
        note="left padding with attention_mask and position_ids from cumsum(mask)-1; the last position is a real token for every prompt",
        label=dict(expected=[], line_sub="position_ids = attention_mask.long().cumsum(-1) - 1",
                   also_subs=["return torch.log_softmax(out.logits[:, -1], dim=-1)"],
                   why="With left padding the final position is the last real token; positions count real tokens only, and the mask hides the pads."),
    )
