from lib import *

NAME = "x22_emformer_chunk_ln"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]
realf = lambda o, a, k: o[~pads(a, k)]


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("x = self.input_proj(F.layer_norm(feats, feats.shape[1:]))", "x = self.input_proj(F.layer_norm(feats, feats.shape[-1:]))")],
        checks={
            "causal": (perturb(0, after(0, 7)), upto(7)),
            "padding": (perturb(0, pads), realf),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="causal = changing the frames of chunks 2 and 3 (t > 7) moves the CTC outputs of chunks 0 and 1, which a streaming encoder emits before those frames arrive",
        label=dict(expected=["layernorm-axis"], also_ok_codes=["causal-leak", "padding-leak"],
                   line_sub="x = self.input_proj(F.layer_norm(feats, feats.shape[1:]))", also_subs=[], consequence_codes=[],
                   why="normalized_shape = feats.shape[1:] = (T, n_mels) takes the mean and variance over the whole utterance (time and features, padded frames included) instead of each frame's features. Every frame's normalized input then depends on frames of later chunks, which defeats the chunk mask: the CTC outputs of the first chunks change when later audio (or padding) changes, so the encoder cannot stream."),
    )
