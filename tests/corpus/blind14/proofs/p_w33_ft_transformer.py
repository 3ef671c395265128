from lib import *

NAME = "w33_ft_transformer"




def missing_ref(mod):
    """a missing cell is represented by its learned token whatever the raw value was: NaN or anything flagged"""
    model, args, kw = build(mod)
    x = args[0]
    emb = model.num_emb
    with torch.no_grad():
        m = torch.isnan(x)
        t1 = emb(x, m)
        t2 = emb(torch.where(m, torch.full_like(x, 123.0), x), m)
    return maxdiff(t1, t2)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(solo(2), missing_ref),
        note="ref = row 2 alone, and the missing-value token ignores the raw value",
        label=dict(line_sub="tokens = torch.einsum(\"bf,fd->bfd\", torch.nan_to_num(x), self.weight) + self.bias",
                   why="Each column gets its own weight and bias row (bf,fd->bfd), missing cells are replaced by a learned token, LayerNorm(d) normalizes each token over its features, and attention over the column tokens of a row never mixes rows. The (features, d) parameter tables vary along the token axis by design: they are the per-column embeddings."),
    )
