from lib import *

NAME = "q05_patchtst_pretrain"


def perm_ref(mod):
    # batch-permutation equivariance: swapping the two samples must swap the outputs
    model, args, kw = build(mod)
    o = run(model, args, kw)
    x, m = args
    o2 = run(model, (x.flip(0), m.flip(0)), kw)
    return maxdiff(o, o2.flip(0))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("tok = tok + self.pe[: tok.size(0)]", "tok = tok + self.pe[: tok.size(1)].transpose(0, 1)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=perm_ref,
        note="pe is [max_len,1,d] (seq-first) but tokens are batch-first [B*C,N,d]: position varies over series index, constant over patches. ref_diff = batch-permutation equivariance violation",
        label=dict(expected=["positional-axis"], line_sub="tok = tok + self.pe[: tok.size(0)]",
                   also_subs=["return pe.unsqueeze(1)  # [max_len, 1, d_model]"],
                   why="The sinusoidal table is laid out seq-first [max_len,1,d] and sliced by tok.size(0) on batch-first tokens, so each series (batch*channel) gets one position vector and the patches get none."),
    )
