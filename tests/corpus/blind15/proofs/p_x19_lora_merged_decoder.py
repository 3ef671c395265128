from lib import *

NAME = "x19_lora_merged_decoder"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("return x.view(B, self.n_heads, T, self.head_dim)", "return x.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)")],
        checks={
            "causal": (perturb(0, after(0, 6), 0, 120), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 120), samp(0)),
        },
        note="",
        label=dict(expected=["head-split"], also_ok_codes=["causal-leak"],
                   line_sub="return x.view(B, self.n_heads, T, self.head_dim)", also_subs=[], consequence_codes=["head-merge"],
                   why="x is (B, T, C) with the heads inside C. view(B, H, T, head_dim) reinterprets memory: 'head' h, 'position' t reads features of token (h*T + t) // H, so each head's sequence axis mixes tokens and the causal mask of SDPA is applied to the wrong positions; head 3 position 0 already holds token 12's projection. Logits at position t change with later tokens. It must be view(B, T, H, head_dim).transpose(1, 2)."),
    )
