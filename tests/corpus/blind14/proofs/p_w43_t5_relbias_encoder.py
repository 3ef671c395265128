from lib import *

NAME = "w43_t5_relbias_encoder"


def bucket_ref(mod):
    from transformers.models.t5.modeling_t5 import T5Attention
    rel = torch.arange(-40, 41)
    a = mod.relative_position_bucket(rel, 16, 32)
    b = T5Attention._relative_position_bucket(rel, bidirectional=True, num_buckets=16, max_distance=32)
    return float((a != b).sum().item())


def rms_ref(m, x):
    return F.rms_norm(x, (x.size(-1),), m.weight, m.eps)


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 120), lambda o, a, k: o[a[1] == 1]),
            "batch": (perturb(0, sample(0, 1), 2, 120), samp(0)),
        },
        ref=refs(bucket_ref, module_ref(lambda m: m.final_norm, rms_ref), solo(2, n=9)),
        note="ref = bucket function against transformers' T5Attention._relative_position_bucket (count of mismatches), the RMS norm against F.rms_norm, and sentence 2 alone",
        label=dict(line_sub="buckets = relative_position_bucket(memory - context, self.num_buckets, self.max_distance)",
                   why="relative_position = key index - query index, bucketed bidirectionally exactly as T5 does (same as transformers' implementation); the (Tq, Tk, H) embedding is permuted to (1, H, Tq, Tk); the padding bias is folded into the shared position bias once and reused by later layers, which is how T5 does it; T5's layer norm is an RMS norm over the features."),
    )
