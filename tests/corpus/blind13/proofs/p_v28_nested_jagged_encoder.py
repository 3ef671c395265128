from lib import *

NAME = "v28_nested_jagged_encoder"

def result():
    pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads, 1, 90), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 90), samp(0)),
        },
        ref=refs(solo(1, n=5, pooled=True, T=9), solo(2, n=7, pooled=True, T=9)),
        note="ref = each sentence alone, without padding",
        label=dict(line_sub="a = F.scaled_dot_product_attention(q, k, v)",
                   why="Queries, keys and values are cut to each sentence's length before SDPA, so the jagged attention never involves padded positions (no mask needed); to_padded_tensor restores the (B, T, H, dh) layout with zeros and the pooling averages real positions only."),
    )
