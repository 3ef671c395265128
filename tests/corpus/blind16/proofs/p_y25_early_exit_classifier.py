from lib import *

NAME = "y25_early_exit_classifier"


def exits(mod):
    """0 when at least one sample exits before the last layer and one does not exit at layer 1"""
    model, args, kw = build(mod)
    ent = []
    hooks = [l.register_forward_hook(lambda m, i, o: ent.append(model.entropy(o[1]) < model.threshold)) for l in model.layers]
    run(model, args, kw)
    for h in hooks:
        h.remove()
    first = ent[0]
    return 0.0 if (first.any() and not first.all()) else 1.0


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, both(sample(0, 0), lambda a, k: a[0] != 0), 1, 100), samp(1)),
                "batch2": (perturb(0, both(sample(0, 1), lambda a, k: a[0] != 0), 1, 100), samp(3))},
        ref=refs(exits, solo(2, n=12, pooled=True)),
        note="ref: the exit pattern is mixed at layer 1 (0) and sample 2 alone gives the same logits",
        label=dict(line_sub="if not self.training and bool(exited.all()):",
                   why="Exiting is decided per sample and an exited sample's logits are frozen with torch.where; the batch-wide break only skips layers once every sample has exited, so no sample's output depends on the others. The layers' dropout is inactive in eval."),
    )
