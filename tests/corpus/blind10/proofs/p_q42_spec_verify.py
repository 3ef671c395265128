from lib import *

NAME = "q42_spec_verify"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("keep = torch.ones(K, P + K, dtype=torch.bool).tril(diagonal=P + 1)",
              "keep = torch.ones(K, P + K, dtype=torch.bool).tril(diagonal=P)")],
        checks={
            "causal": (perturb(0, after(0, 2), 0, 64), upto(2)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        note="cache of 6 prefilled by the same model; keep-mask tril(P+1) lets draft i see draft i+1, so the verify logits for position i depend on the token they are meant to verify",
        label=dict(expected=["causal-leak"], line_sub="keep = torch.ones(K, P + K, dtype=torch.bool).tril(diagonal=P + 1)",
                   why="Query i sits at key index P+i, so the keep-mask must be tril(diagonal=P); tril(P+1) also shows the next draft token."),
    )
