from lib import *

NAME = "y28_text2sql_copy_decoder"


def prefix(mod):
    """decoding a shorter target must reproduce the prefix of the full output"""
    model, args, kw = build(mod)
    full = run(model, args, kw)
    try:
        part = run(model, (args[0], args[1][:, :7]), kw)
    except RuntimeError:
        return float("inf")
    return maxdiff(full[:, :7], part)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("p_gen = torch.sigmoid(self.p_gen(torch.cat([y, enc], dim=-1)))",
              "p_gen = torch.sigmoid(self.p_gen(torch.cat([y, ctx], dim=-1)))")],
        checks={"causal": (perturb(1, after(1, 6), 1, 90), upto(6)),
                "padding": (keep, whole(), pad_row(lambda m: m.embed, 0))},
        ref=prefix,
        note="ref: a 7-token target decodes to the first 7 rows of the 12-token output",
        label=dict(expected=["axis-mismatch"], line_sub="p_gen = torch.sigmoid(self.p_gen(torch.cat([y, enc], dim=-1)))",
                   consequence_codes=["padding-leak"],
                   why="p_gen concatenates decoder step t with encoder state t instead of the step's cross-attention context; the two axes only line up because source and target both have 12 tokens, so target step t is tied to source token t (a pad for sample 1)."),
    )
