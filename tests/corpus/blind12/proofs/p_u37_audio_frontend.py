from lib import *

NAME = "u37_audio_frontend"
# mel is (B, n_mels, T): padded frames are along the last axis
pads = lambda a, k: (torch.arange(16)[None] >= get(a, k, 1)[:, None])[:, None, :].expand(get(a, k, 0).shape)


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("x = self.norm(x).transpose(1, 2)     # -> (B, T, C)", "x = self.norm(x.transpose(1, 2))     # -> (B, T, C)")],
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="nn.LayerNorm(16) normalises the last axis, which is time (16 frames) in the channels-first tensor",
        label=dict(expected=["layernorm-axis"], line_sub="x = self.norm(x).transpose(1, 2)     # -> (B, T, C)",
                   also_ok_codes=["axis-mismatch"], consequence_codes=["padding-leak"],
                   why="The LayerNorm is built for the 16 channels but applied before the transpose, to (B, C, T); the clips happen to have 16 frames, so it runs and normalises every channel over time instead of every frame over channels. Each frame then depends on all others, padded frames included."),
    )
