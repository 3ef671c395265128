from lib import *

NAME = "t09_tree_spec_mask"


def per_path(mod):
    """each node's logits equal a plain left-to-right pass over prefix + its root-to-node path"""
    model, args, kw = build(mod)
    prefix, tree, parents = args
    out = run(model, args, kw)
    worst = 0.0
    for i in range(parents.numel()):
        path, p = [], i
        while p >= 0:
            path.insert(0, p)
            p = int(parents[p])
        chain_parents = torch.arange(len(path)) - 1
        o = run(model, (prefix, tree[:, path], chain_parents), {})
        worst = max(worst, maxdiff(o[:, -1], out[:, i]))
    return worst


def result():
    branch = lambda a, k: torch.tensor([False, True, False, False, True, False, True])[None].expand(2, 7)
    return prove(
        NAME, "correct",
        checks={
            # nodes 1, 4, 6 form the second branch; nodes 0, 2, 3, 5 must not see them
            "causal": (perturb(1, branch, 0, 40), lambda o, a, k: o[:, [0, 2, 3, 5]]),
            "batch": (chain(perturb(0, sample(0, 1), 0, 40), perturb(1, sample(1, 1), 0, 40)), samp(0)),
        },
        ref=per_path,
        note="tree mask: ancestors + self; positions = prefix length + depth",
        label=dict(expected=[], line_sub="x = blk(x, ~allowed)  # nn.MultiheadAttention: True = not allowed to attend",
                   why="The tree mask lets each draft node see the prefix, its ancestors and itself (inverted for nn.MultiheadAttention's True = blocked convention); sibling branches are invisible and each node equals a plain causal pass over its own path."),
    )
