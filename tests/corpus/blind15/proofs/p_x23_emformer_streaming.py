from lib import *

NAME = "x23_emformer_streaming"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]
realf = lambda o, a, k: o[~pads(a, k)]


def stream_ref(mod):
    """the first two chunks computed from the first 8 frames alone equal the full-utterance outputs"""
    model, args, kw = build(mod)
    full = run(model, args, kw)
    feats, lens = args
    part = run(model, (feats[:, :8], lens.clamp(max=8)), {})
    real = (torch.arange(8)[None, :] < lens[:, None])
    return maxdiff(full[:, :8][real], part[real])


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7)), upto(7)),
            "padding": (perturb(0, pads), realf),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(stream_ref, solo(1, n=13), solo(2, n=7)),
        note="ref = outputs of the first two chunks from the first 8 frames only, and each utterance alone",
        label=dict(line_sub="x = self.input_proj(F.layer_norm(feats, feats.shape[-1:]))",
                   why="The input normalization is per frame (over the mel bins only); the chunk mask lets frame i see its own chunk and the 4 frames before it, intersected with the key padding mask; masked scores get -1e8, so a padded frame whose chunk and left context are all padding still has a finite (uniform) row and real frames never read padding. Outputs of a chunk are final once the chunk has arrived."),
    )
