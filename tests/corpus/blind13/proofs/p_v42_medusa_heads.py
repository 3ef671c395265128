from lib import *

NAME = "v42_medusa_heads"

def result():
    bfirst = lambda o: o.transpose(0, 1)
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 64), upto(5, dim=2)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        pick=bfirst,
        note="outputs are (heads, B, T, V); checks read them batch-first",
        label=dict(line_sub="return torch.stack(logits, dim=0)",
                   why="All Medusa heads read the same causal hidden state at position t (each predicts a later token from it, by design), and the stack puts the head axis first. The base model is causal (generate_square_subsequent_mask with is_causal)."),
    )
