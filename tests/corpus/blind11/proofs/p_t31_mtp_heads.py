from lib import *

NAME = "t31_mtp_heads"


def result():
    main = lambda o: o[0]
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("return torch.triu(torch.ones(T, T, device=device), diagonal=0).bool()",
              "return torch.triu(torch.ones(T, T, device=device), diagonal=1).bool()")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 50), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        pick=main,
        note="triu(diagonal=0) as the hidden part also hides the diagonal; row 0 has nothing left and attends uniformly to every token",
        label=dict(expected=["causal-diagonal"], line_sub="return torch.triu(torch.ones(T, T, device=device), diagonal=0).bool()",
                   also_subs=["scores = scores.masked_fill(causal_mask(T, x.device), -1e9)"],
                   also_ok_codes=["fully-masked-row"],
                   consequence_codes=["causal-leak"],
                   why="The mask of forbidden positions is triu(diagonal=0), which includes the diagonal: no query sees its own token, and query 0 has every key masked with -1e9, so it averages the whole sequence including the future."),
    )
