from lib import *

NAME = "a06_ecg_rhythm_transformer"


def pad_samples(args, kw):
    m = args[1] == 0
    return m.repeat_interleave(5, dim=1).unsqueeze(1).expand(-1, 12, -1)


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("self.norm1 = nn.LayerNorm([max_len, d])", "self.norm1 = nn.LayerNorm(d)")],
        checks={"padding": (perturb(0, pad_samples), whole())},
        label=dict(expected=["layernorm-axis"], line_sub="self.norm1 = nn.LayerNorm([max_len, d])",
                   consequence_codes=["padding-leak"],
                   why="LayerNorm([max_len, d]) takes its statistics over the beat axis as well as the features, so every beat is normalized with the padded beats' values and real outputs change with the padding content."),
    )
