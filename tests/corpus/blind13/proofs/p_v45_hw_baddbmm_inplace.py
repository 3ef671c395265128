from lib import *

NAME = "v45_hw_baddbmm_inplace"

def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1), 1, 50), samp(0))},
        ref=refs(solo_cut(0, {0: 6}, out_cut=6), solo_cut(1, {0: 9}, out_cut=9)),
        note="ref = each padded sentence alone, cut to its real tokens (pad mask comes from the ids); outputs compared on the real positions",
        label=dict(line_sub="scores = torch.baddbmm(bias.view(B * self.h, T, T), Q, K.transpose(1, 2), alpha=1 / math.sqrt(self.d_k))",
                   why="baddbmm computes beta * bias + alpha * Q K^T with alpha = 1/sqrt(d_k), the correct scale; the bias is written in place with masked_fill_ (-inf on padded keys) before it is used, and (B, H) are folded and unfolded in the same order. softmax(dim=2) is the key axis of (B*H, T, T)."),
    )
