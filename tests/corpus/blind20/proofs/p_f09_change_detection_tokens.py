from lib import *

NAME = "f09_change_detection_tokens"


def tokenizer_ref(m, x):
    """token l = sum over pixels p of softmax_p(a_l(p)) * x(p), one pixel at a time"""
    B, C, H, W = x.shape
    a = m.attn_maps(x)  # B L H W
    L = a.size(1)
    out = torch.zeros(B, L, C)
    for b in range(B):
        for l in range(L):
            w = torch.softmax(a[b, l].flatten(), dim=0)
            for p in range(H * W):
                out[b, l] += w[p] * x[b, :, p // W, p % W]
    return out


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0)),
        },
        ref=module_ref(lambda m: m.tokenizer, tokenizer_ref),
        note="ref = semantic tokens vs a per-pixel weighted sum with weights normalized over the pixels",
        label=dict(line_sub="a = self.attn_maps(x).flatten(2).softmax(dim=-1)",
                   why="In BIT's tokenizer each of the L tokens pools the pixels, so its attention map is normalized over the H*W pixel axis (the axis it sums over in the einsum); the 16 tokens of both dates and the 16 pixels only share a length and are never mixed, and pixels query tokens in the decoder."),
    )
