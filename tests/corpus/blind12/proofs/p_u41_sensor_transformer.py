from lib import *

NAME = "u41_sensor_transformer"


def order_matters(mod):
    """with positions along time, reversing a window changes its prediction; without, it cannot"""
    model, args, kw = build(mod)
    x = args[0]
    return maxdiff(run(model, (x,), {}), run(model, (x.flip(1),), {}))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("positions = torch.arange(x.size(0), device=x.device).unsqueeze(1)",
              "positions = torch.arange(x.size(1), device=x.device).unsqueeze(0)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(solo(1), solo(2)),
        note="x.size(0) is the batch size in batch-first tensors: sample b gets the embedding of position b at every time step",
        label=dict(expected=["positional-axis"], line_sub="positions = torch.arange(x.size(0), device=x.device).unsqueeze(1)",
                   why="The position ids run over the batch axis (x.size(0) with a (B, 1) layout, left from the time-first version), so each window gets one constant vector, the embedding of its batch index, at every time step: the encoder has no notion of order (a time-reversed window gets the same mean-pooled prediction) and a window's prediction depends on where it sits in the batch."),
    )
