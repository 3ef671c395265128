from lib import *

NAME = "g06_hf_starcoder2_review_comments"


def pad(a, k):
    return torch.arange(a[0].size(1))[None] >= a[1][:, None]


def window_ref(mod):
    """sliding window w: one layer reaches w-1 tokens back, L layers L*(w-1); token 0 must not reach beyond"""
    model, args, kw = build(mod)
    w = model.lm.config.sliding_window
    L = model.lm.config.num_hidden_layers
    t = L * (w - 1) + 1
    o1 = run(model, args, kw)
    ids = args[0].clone()
    ids[0, 0] = (ids[0, 0] + 7) % 128
    o2 = run(model, (ids, args[1]), kw)
    return maxdiff(o1[0, t:], o2[0, t:])


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7), 4, 128), upto(7)),
            "padding": (perturb(0, pad, 4, 128), lambda o, a, k: o[~pad(a, k)]),
            "batch": (perturb(0, sample(0, 0), 4, 128), lambda o, a, k: o[1:]),
        },
        ref=refs(solo(1, 12), solo(2, 9), window_ref),
        note="ref = each example alone at its true length; tokens beyond the stacked sliding-window reach have no influence",
        label=dict(line_sub="position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)",
                   why="With right padding the mask cumsum minus one equals arange at every real position (and clamps padding, which no real token attends to), so the position ids match an unpadded run; the 0/1 attention_mask follows the HF convention and the sliding window (6) is applied by the library on top of causal masking."),
    )
