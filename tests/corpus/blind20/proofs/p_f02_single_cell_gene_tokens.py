from lib import *

NAME = "f02_single_cell_gene_tokens"


def real_genes(o, a, k):
    """predictions at real genes, and the cell embeddings"""
    G = get(a, k, 0).size(1)
    return torch.cat([o[:, :G][get(a, k, 0) != 0], o[:, G:].flatten()])


def pick(o):
    """per-gene expression predictions [B, G] with the cell embedding appended"""
    return torch.cat([o[1], o[0]], dim=-1)


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("expressed = values > 0\n", "expressed = (values > 0) & ~pad\n")],
        checks={
            # only the value slots of padded genes change
            "padding": (perturb(1, where_eq(0, 0)), real_genes),
            "pad_row": (keep, real_genes, pad_row(lambda m: m.gene_emb, 0)),
            "batch": (perturb(1, sample(1, 1)), samp(0)),
        },
        pick=pick,
        ref=refs(solo_cut(2, {0: 9, 1: 9}, pick=lambda o: o[0]), solo_cut(0, {0: 14, 1: 14}, pick=lambda o: o[0])),
        note="ref = cell embeddings of cells 0 and 2 in the padded batch vs the same cells alone without padding",
        label=dict(expected=["padding-leak"], line_sub="expressed = values > 0",
                   also_subs=["edges = torch.nanquantile(ref, self.q, dim=1).T.contiguous()"], also_ok_codes=[], consequence_codes=[],
                   why="The per-cell bin edges are quantiles over every value slot with value > 0, including the slots of padded genes (gene id 0) whose values the collator left in place. The bins of the real genes, and so the gene predictions and the cell embedding, depend on what the padding slots hold."),
    )
