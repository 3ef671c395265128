from lib import *

NAME = "t47_leftpad_inf_nan"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[('padding = torch.zeros(B, 1, 1, T, dtype=dtype).masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))',
              'padding = torch.zeros(B, 1, 1, T, dtype=dtype).masked_fill(attention_mask[:, None, None, :] == 0, torch.finfo(dtype).min)')],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 50), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 50), samp(0)),
        },
        ref=solo(1, n=7, left=True, pooled=True),
        note="left pad queries see only pad keys under the causal mask: all -inf, NaN rows, and 0 * NaN spreads it to every real row of the next layer",
        label=dict(expected=["fully-masked-row"], line_sub='padding = torch.zeros(B, 1, 1, T, dtype=dtype).masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))',
                   also_subs=["s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + mask"],
                   also_ok_codes=["nan"],
                   consequence_codes=["nan"],
                   why="With left padding, a pad query's only causal keys are pads; with -inf for both masks its row is all -inf and softmax gives NaN, whose values then poison the real rows of the next layer (0 weight x NaN value); the padded samples' next-token logits are NaN."),
    )
