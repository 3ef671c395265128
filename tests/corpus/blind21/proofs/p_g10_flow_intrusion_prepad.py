from lib import *

NAME = "g10_flow_intrusion_prepad"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: ~a[1]), whole()),
            "batch": (perturb(0, sample(0, 0)), lambda o, a, k: o[1:]),
        },
        ref=refs(solo(1, 9, left=True, pooled=True), solo(2, 4, left=True, pooled=True)),
        note="ref = a pre-padded flow run alone with only its real packets",
        label=dict(line_sub="pos = (packet_mask.cumsum(1) - 1).clamp(min=0)",
                   why="Flows are left (pre-) padded: positions are counted from the first real packet with a cumsum of the mask, the encoder gets src_key_padding_mask=~packet_mask (True = ignore), the attention pooling fills padded packets with -inf and normalises over dim 1, which is the packet axis of the (B, T) scores, and dropout is gated by self.training (third positional argument)."),
    )
