from lib import *

NAME = "u13_set_transformer"


def permutation(mod):
    """a set model: shuffling the real elements of a set must not change its output"""
    model, args, kw = build(mod)
    X, mask = args
    out = run(model, args, kw)
    X2 = X.clone()
    X2[1, :6] = X[1, torch.tensor([3, 0, 5, 1, 4, 2])]
    return maxdiff(out, run(model, (X2, mask), kw))


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: ~get(a, k, 1)), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(permutation, solo(1, n=6, pooled=True), solo(2, n=3, pooled=True)),
        label=dict(expected=[], line_sub="return self.mab1(X, H)",
                   why="Only keys need the padding mask: inducing points and seeds are always real queries, and in ISAB's second MAB the keys are the m inducing outputs. Padded elements produce garbage rows that are only ever read as masked keys; each set's output equals the set alone and is invariant to shuffling its elements."),
    )
