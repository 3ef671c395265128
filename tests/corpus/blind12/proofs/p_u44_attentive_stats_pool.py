from lib import *

NAME = "u44_attentive_stats_pool"
pads = lambda a, k: (torch.arange(16)[None] >= get(a, k, 1)[:, None])[:, None, :].expand(get(a, k, 0).shape)


def cut(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        feats, lengths = args
        full = run(model, args, kw)
        one = run(model, (feats[i:i + 1, :, :n], torch.tensor([n])), {})
        return maxdiff(full[i:i + 1], one)
    return ref


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("alpha = torch.softmax(e, dim=2) * mask", 'alpha = torch.softmax(e.masked_fill(mask == 0, float("-inf")), dim=2)')],
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(cut(1, 10), cut(2, 5)),
        note="the softmax normalises over all T frames, padding included, and the zeroing afterwards leaves real weights that no longer sum to 1 and depend on the padded frames' scores",
        label=dict(expected=["mask-after-softmax"], line_sub="alpha = torch.softmax(e, dim=2) * mask",
                   consequence_codes=["padding-leak"],
                   why="The padding mask is applied after the softmax over time: the normaliser still includes the padded frames' scores, so the real frames' weights sum to less than 1 and change with the padding content; mean and std are biased and differ from the utterance alone."),
    )
