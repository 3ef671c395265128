from lib import *

NAME = "q07_informer_decoder"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7)), upto(7)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1))), samp(0)),
        },
        note="decoder self-attention causal triu(diagonal=1) filled -inf; cross-attention over 16 encoder steps (no mask needed)",
        label=dict(expected=[], line_sub="causal = torch.triu(torch.ones(L, S, dtype=torch.bool, device=q.device), diagonal=1)",
                   why="Causal mask strictly above the diagonal in decoder self-attention (L == S there), unmasked cross-attention to a dense encoder output, scale 1/sqrt(d_head)."),
    )
