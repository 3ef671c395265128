from lib import *

NAME = "v34_mha_per_head_weights"

def result():
    tags = lambda o: o[0]
    return prove(
        NAME, "correct",
        checks={"batch": (chain(perturb(0, sample(0, 1), 1, 60), perturb(1, sample(1, 1), 0, 2)), samp(0))},
        pick=tags,
        ref=refs(solo_cut(0, {0: 7, 1: 7}, pick=tags, out_cut=7), solo_cut(2, {0: 4, 1: 4}, pick=tags, out_cut=4)),
        note="ref = each padded dialogue alone, cut to its real tokens (pad mask comes from the ids)",
        label=dict(line_sub="attn_mask = bias.reshape(B * self.heads, T, T)",
                   why="The (B, H, T, T) bias is reshaped to (B * H, T, T) sample-major, the row order nn.MultiheadAttention expects (b * heads + h); padding goes through key_padding_mask (True = ignore). need_weights with average_attn_weights=False only returns the per-head maps."),
    )
