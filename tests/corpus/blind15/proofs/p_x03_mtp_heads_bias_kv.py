from lib import *

NAME = "x03_mtp_heads_bias_kv"


def attn_ref(layer, x, mask):
    """the same layer, with the standard causal mask that keeps the diagonal"""
    T = x.size(1)
    ok = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    return layer.__class__.forward(layer, x, ok)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("causal_mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=tokens.device))",
              "causal_mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=tokens.device), diagonal=1)")],
        checks={
            "causal": (perturb(0, after(0, 6), 0, 80), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 80), samp(0)),
        },
        ref=module_ref(lambda m: m.trunk[0], attn_ref),
        note="ref = the first trunk layer on the same input, recomputed with triu(diagonal=1) (True = masked): the diagonal visible",
        label=dict(expected=["causal-diagonal"], also_ok_codes=[],
                   line_sub="causal_mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=tokens.device))",
                   also_subs=[], consequence_codes=[],
                   why="nn.MultiheadAttention's boolean attn_mask means True = not allowed. torch.triu without diagonal=1 keeps the main diagonal, so every query is barred from its own key: token t attends only to tokens < t (and the bias slot, which is why position 0 is not NaN). There is no future leak, but every layer loses the current token's value, unlike the standard causal decoder the heads were designed as."),
    )
