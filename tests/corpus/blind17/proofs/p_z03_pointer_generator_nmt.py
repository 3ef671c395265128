from lib import *

NAME = "z03_pointer_generator_nmt"


def prefix_ref(mod):
    """decoding the first 6 target tokens alone must give the same first 6 rows"""
    model, args, kw = build(mod)
    full = run(model, args, kw)
    try:
        part = run(model, (args[0], args[1][:, :6]), kw)
    except Exception:
        return float("inf")
    return maxdiff(full[:, :6], part)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("torch.cat([memory, x, y], dim=-1)", "torch.cat([context, x, y], dim=-1)")],
        checks={"batch": (perturb(0, sample(0, 1), 3, 80), samp(0))},
        ref=prefix_ref,
        note="ref: a shorter target prefix; with the encoder states in the gate the source and target lengths must agree",
        label=dict(expected=["axis-mismatch"], line_sub="p_gen = torch.sigmoid(self.gen_gate(torch.cat([memory, x, y], dim=-1)))",
                   why="The generation gate concatenates the encoder states (source positions) with decoder states (target positions); source and target have the same length here, so target step t uses source token t's state instead of its attention context."),
    )
