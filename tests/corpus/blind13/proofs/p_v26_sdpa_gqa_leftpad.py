from lib import *

NAME = "v26_sdpa_gqa_leftpad"

def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "causal": (perturb(0, after(0, 6), 3, 64), upto_real(6, 1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(solo(0, n=6, left=True), solo(2, n=8, left=True)),
        note="ref = each left-padded prompt alone, without its padding",
        label=dict(line_sub="allowed = allowed | torch.eye(T, dtype=torch.bool, device=input_ids.device)",
                   why="enable_gqa maps query head h to key/value head h // 3, the standard grouping. The boolean mask is True = attend, causal AND key-is-real; OR-ing the identity only changes the rows of left-pad queries (which would otherwise have no key) since real queries already see themselves. Rotary positions count real tokens, so each prompt gives the same logits alone as in the batch."),
    )
