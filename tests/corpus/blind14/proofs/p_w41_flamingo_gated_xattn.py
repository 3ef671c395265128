from lib import *

NAME = "w41_flamingo_gated_xattn"


def before(limits):
    """output positions before the given position per sample"""
    def region(o, a, k):
        return torch.cat([o[i, :lim].reshape(-1) for i, lim in enumerate(limits)])
    return region


def image(j):
    return lambda a, k: (torch.arange(a[1].size(1)) == j)[None, :].expand(a[1].shape[:2])


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 2, 70), upto(5)),
            "second_image": (perturb(1, image(1)), before([8, 5])),
            "any_image": (perturb(1, lambda a, k: torch.ones(a[1].shape[:2], dtype=torch.bool)), before([2, 0])),
            "batch": (chain(perturb(0, sample(0, 1), 2, 70), perturb(1, sample(1, 1))), samp(0)),
        },
        note="second_image = the second image's latents reach no token before its <image> token; any_image = text before the first image sees no media",
        label=dict(line_sub='attn = attn.masked_fill(rearrange(text_time == 0, "b t -> b 1 t 1"), 0.0)',
                   why="The media mask is pairwise (text position vs image index): a text token keeps only the visual tokens of the latest <image> at or before it. Rows of text that precede every image are fully masked, so after the softmax the whole row is zeroed on purpose (Flamingo's only_attend_immediate_media); those tokens get exactly zero visual input instead of a uniform average. The tanh gates are scalars."),
    )
