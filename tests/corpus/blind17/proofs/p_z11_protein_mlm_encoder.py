from lib import *

NAME = "z11_protein_mlm_encoder"


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("q = q.contiguous().view(bsz, self.num_heads, L, self.head_dim)",
              "q = q.contiguous().view(bsz, L, self.num_heads, self.head_dim).transpose(1, 2)")],
        checks={"batch": (perturb(0, sample(0, 0), 4, 25), samp(1)),
                "padding": (keep, lambda o, a, k: o[a[0] != 1], pad_row(lambda m: m.embed_tokens, 1))},
        ref=solo_cut(2, {0: 7}, out_cut=7),
        label=dict(expected=["head-split"], line_sub="q = q.contiguous().view(bsz, self.num_heads, L, self.head_dim)",
                   why="The queries are split into heads with view(bsz, H, L, d_h) on a (bsz, L, E) tensor, so each 'query row' of a head is a mix of several residues' feature slices; residue i's output comes from other residues' queries and depends on sequence length."),
    )
