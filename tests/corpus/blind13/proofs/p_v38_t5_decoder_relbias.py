from lib import *

NAME = "v38_t5_decoder_relbias"

def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 4), 0, 64), upto(4)),
            "padding": (perturb(1, lambda a, k: a[2] == 0), whole()),
            "batch": (chain(perturb(0, sample(0, 1), 0, 64), perturb(1, sample(1, 1))), samp(0)),
        },
        note="padding = encoder states at padded source positions",
        label=dict(line_sub="scores = torch.matmul(q, k.transpose(3, 2)) + bias",
                   why="T5 does not scale the logits by 1/sqrt(d_kv); the scale lives in the query initialisation (as in the released T5 code and transformers' T5Attention). The unidirectional buckets depend on the distance to the past only, the causal mask and the encoder padding enter as finfo.min biases, the T5 norm is an RMS norm over features."),
    )
