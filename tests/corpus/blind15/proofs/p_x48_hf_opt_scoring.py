from lib import *

NAME = "x48_hf_opt_scoring"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 120), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: torch.arange(12)[None, :] > 0), 3, 120), samp(0)),
        },
        ref=refs(solo_cut(1, {0: 9, 1: 9}), solo_cut(2, {0: 6, 1: 6})),
        note="ref = each candidate cut to its tokens and scored alone",
        label=dict(line_sub="return (token_lp * attention_mask[:, 1:]).sum(dim=-1)",
                   why="Token t+1 is scored from the logits at t (the shift), and only real target tokens count (attention_mask[:, 1:]); with right padding every scored token is predicted from real positions. OPT derives its learned positions from the attention mask, and the library adds the causal mask to the 1 = real padding mask."),
    )
