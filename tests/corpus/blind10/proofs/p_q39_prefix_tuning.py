from lib import *

NAME = "q39_prefix_tuning"


def result():
    real_tok = lambda a, k: a[1] == 1
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("return t.view(B, self.n_head, T, self.head_dim)",
              "return t.view(B, T, self.n_head, self.head_dim).transpose(1, 2)")],
        checks={
            "causal": (perturb(0, both(after(0, 5), real_tok), 2, 60), upto(5)),
            "padding": (perturb(0, where_eq(1, 0), 2, 60), real(1)),
            "batch": (perturb(0, both(sample(0, 1), real_tok), 2, 60), samp(0)),
        },
        note="view(B, H, T, dh) on a [B, T, D] projection without the transpose: 'position' t of head h holds features of tokens 3h.. so the causal mask no longer protects the future (prefix always visible, no empty rows)",
        label=dict(expected=["head-split"], line_sub="return t.view(B, self.n_head, T, self.head_dim)",
                   consequence_codes=["causal-leak", "padding-leak"],
                   why="The helper reshapes [B, T, D] straight to [B, H, T, dh]; the new sequence axis mixes tokens and feature chunks, so the causal and padding masks act on the wrong tokens."),
    )
