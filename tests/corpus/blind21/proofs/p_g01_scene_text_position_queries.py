from lib import *

NAME = "g01_scene_text_position_queries"


def mask_ref(mod):
    """canonical order: query r may see context slots 0..r (BOS and chars before r); content slot c sees 0..c"""
    T = 10
    content_mask, query_mask = mod.generate_attn_masks(torch.arange(T + 1))
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    return maxdiff((query_mask == float("-inf")).float(), future.float()) + \
        maxdiff((content_mask == float("-inf")).float(), future.float())


def result():
    return prove(
        NAME, "correct",
        checks={
            # output r predicts character r: it must not depend on characters r, r+1, ...
            "causal": (perturb(1, after(1, 5), 1, 37), upto(6)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 1, 37)), samp(0)),
        },
        ref=mask_ref,
        note="causal is the strict form: logits at positions <= 6 are unchanged when characters >= 6 change",
        label=dict(line_sub="query_mask = mask[1:, :-1]",
                   why="The (T+1)x(T+1) mask is indexed by sequence slots with BOS at 0; the diagonal is masked before slicing, and rows 1.. / columns ..T-1 map query r (predicting char r) to context slots 0..r, i.e. BOS and the characters before r, never char r itself. The content stream keeps its diagonal because slot c holds char c-1."),
    )
