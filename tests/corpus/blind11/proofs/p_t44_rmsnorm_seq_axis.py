from lib import *

NAME = "t44_rmsnorm_seq_axis"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("variance = hidden_states.pow(2).mean(1, keepdim=True)", "variance = hidden_states.pow(2).mean(-1, keepdim=True)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 50), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        note="mean(1) on (B, T, D) is the mean over time: every position's scale depends on all positions",
        label=dict(expected=["layernorm-axis"], line_sub="variance = hidden_states.pow(2).mean(1, keepdim=True)",
                   consequence_codes=["causal-leak"],
                   why="RMSNorm's statistic must be over the hidden axis (-1); mean(1) on batch-first activations averages over the sequence, so the normalization at position t uses future tokens."),
    )
