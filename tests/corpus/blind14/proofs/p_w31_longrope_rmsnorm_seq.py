from lib import *

NAME = "w31_longrope_rmsnorm_seq"


def rms_ref(m, x):
    return F.rms_norm(x, (x.size(-1),), m.weight, m.variance_epsilon)


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("variance = hidden_states.pow(2).mean(1, keepdim=True)", "variance = hidden_states.pow(2).mean(-1, keepdim=True)")],
        checks={
            "causal": (perturb(0, after(0, 7), 0, 128), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 128), samp(0)),
        },
        ref=module_ref(lambda m: m.norm, rms_ref),
        note="ref = the final RMSNorm against F.rms_norm over the features",
        label=dict(expected=["layernorm-axis"], also_ok_codes=["causal-leak"],
                   line_sub="variance = hidden_states.pow(2).mean(1, keepdim=True)", also_subs=[], consequence_codes=[],
                   why="hidden_states is (B, T, D); RMSNorm's mean of squares belongs on the feature axis (-1). mean(1) averages over the sequence instead, so each token is scaled by a statistic of the whole sequence, later tokens included: logits at position t change when tokens after t change, and per-token norms are wrong."),
    )
