from lib import *

NAME = "q10_decision_transformer"
T = 4


def result():
    m = lambda a, k: get(a, k, 4) == 1
    fut = chain(perturb(0, after(0, T)), perturb(1, after(1, T - 1)), perturb(2, after(2, T)))
    return prove(
        NAME, "correct",
        checks={
            "causal": (fut, upto(T)),
            "padding": (chain(perturb(0, where_eq(4, 0), seed=5), perturb(1, where_eq(4, 0), seed=6),
                              perturb(2, where_eq(4, 0), seed=7)), real(4)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0)),
        },
        note="interleaved (R,s,a) tokens with token-level tril over 3K; action at t predicted from s_t; perturbing a_t.. and s_{t+1}.. leaves preds <= t unchanged",
        label=dict(expected=[], line_sub="causal = torch.ones(3 * K, 3 * K, dtype=torch.bool).tril()",
                   also_subs=["bias = bias.masked_fill(~keep[:, None, None, :], -1e4)"],
                   why="Token-level causal mask over the 3K interleaved tokens plus key padding for the left-padded context; the s_t token cannot see a_t."),
    )
