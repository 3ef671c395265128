from lib import *

NAME = "z10_kg_shaw_relations"


def pad_rel(args, kw):
    """random relation ids on every pair that touches a padded node"""
    ent, rel, m = args
    bad = ~(m[:, :, None] & m[:, None, :])
    g = torch.Generator().manual_seed(5)
    rel = torch.where(bad, torch.randint(0, 10, rel.shape, generator=g), rel)
    return (ent, rel, m), kw


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, where_eq(2, False), 0, 200), pad_rel), real(2, keep=True)),
            "batch": (perturb(0, sample(0, 0), 0, 200), samp(1)),
        },
        label=dict(line_sub="e = e.masked_fill(~node_mask[:, None, None, :], float(\"-inf\"))",
                   why="Relation key and value vectors are shared across heads and added inside the score and the value sum (Shaw-style); padded nodes are removed on the key axis with -inf, and every graph has at least one real node, so padded rows never reach the real outputs."),
    )
