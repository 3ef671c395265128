from lib import *

NAME = "q49_swin"


def shift_ref(mod):
    # shifted block: a token must not be influenced (through attention) by tokens that are only adjacent
    # after the cyclic roll. Token (0,0) sits in a window with wrapped-around tokens from the bottom-right.
    torch.manual_seed(9)
    blk = mod.SwinBlock(32, 8, 4, 4, 2).eval()
    x = torch.randn(1, 64, 32)
    with torch.no_grad():
        y = blk(x)
        x2 = x.clone()
        x2[0, 7 * 8 + 7] += 5.0  # pixel (7,7): after roll(-2) it shares the top-left... window with (0,0)? yes: (5,5)->(3,3)
        # (7,7) rolls to (5,5) and (0,0) rolls to (6,6): same window (4..7, 4..7) but different regions -> masked
        return maxdiff(y[0, 0], blk(x2)[0, 0])


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=shift_ref,
        note="Swin shifted-window mask with -100 for cross-region pairs (reference implementation value); ref_diff = influence of a wrapped-around neighbour on token (0,0) through the masked window (~exp(-100))",
        label=dict(expected=[], line_sub="attn_mask = attn_mask.masked_fill(attn_mask != 0, -100.0).masked_fill(attn_mask == 0, 0.0)",
                   also_subs=["attn = attn.view(B_ // nW, nW, self.heads, N, N) + mask.unsqueeze(1).unsqueeze(0)"],
                   why="Standard Swin: after the cyclic shift, pairs from different image regions get -100 (exp(-100) ~ 0 against O(1) scores), the mask is broadcast per window over batch and heads, and the roll is undone."),
    )
