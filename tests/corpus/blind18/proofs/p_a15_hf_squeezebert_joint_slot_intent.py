from lib import *

NAME = "a15_hf_squeezebert_joint_slot_intent"


def pick(o):
    slots, intent = o
    return torch.cat([slots, intent.unsqueeze(1).expand(-1, slots.size(1), -1)], -1)


def result():
    return prove(
        NAME, "correct", pick=pick,
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 120), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 120), samp(0)),
        },
        label=dict(line_sub="sentence = (hidden * w).sum(1) / w.sum(1)",
                   why="attention_mask (1 = real token) is what SqueezeBertModel expects; the intent vector is a mean over real tokens only, and slot logits at real positions do not see padded tokens."),
    )
