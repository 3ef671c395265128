from lib import *

NAME = "w35_seqfirst_batchpe"


def column(i):
    return lambda a, k: (torch.arange(a[0].size(1)) == i)[None, :].expand(a[0].shape)


def alone_ref(i):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        one = run(model, (args[0][:, i:i + 1],), {})
        return maxdiff(full[:, i:i + 1], one)
    return ref


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("x = x + self.pe[:, : x.size(1)]", "x = x + self.pe[0, : x.size(0)].unsqueeze(1)")],
        checks={
            "causal": (perturb(0, after(0, 5, dim=0), 0, 200), lambda o, a, k: o[:6]),
            "batch": (perturb(0, column(1), 0, 200), lambda o, a, k: o[:, 0]),
        },
        ref=refs(alone_ref(1), alone_ref(3)),
        note="ref = sequence i run alone (batch of one) must give the same logits as in the batch",
        label=dict(expected=["positional-axis"], also_ok_codes=[], line_sub="x = x + self.pe[:, : x.size(1)]",
                   also_subs=["pe = torch.zeros(1, max_len, d_model)"], consequence_codes=[],
                   why="The model runs sequence-first (seq_len, batch, d) but the positional table is laid out batch-first (1, max_len, d) and sliced by x.size(1), which is the batch size. Sequence b gets the position-b vector added to all of its tokens: positions vary along the batch axis and not along the sequence, so the model has no token order information and a sequence's logits depend on its slot in the batch."),
    )
