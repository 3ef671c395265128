from lib import *

NAME = "w36_seqfirst_sinusoid"

pads = lambda a, k: torch.arange(a[0].size(0))[:, None] >= a[1][None, :]  # (seq, batch)


def column(i):
    return lambda a, k: (torch.arange(a[0].size(1)) == i)[None, :].expand(a[0].shape)


def alone_ref(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        one = run(model, (args[0][:n, i:i + 1], args[1][i:i + 1]), {})
        return maxdiff(full[:n, i:i + 1], one)
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads, 1, 150), lambda o, a, k: o[~pads(a, k)]),
            "batch": (perturb(0, column(1), 1, 150), lambda o, a, k: o[:, 0]),
        },
        ref=refs(alone_ref(1, 7), alone_ref(2, 9)),
        note="ref = each sentence cut to its length and tagged alone",
        label=dict(line_sub="return self.dropout(x + self.pe[: x.size(0)])",
                   why="The data is sequence-first (seq_len, batch, d), so the (max_len, 1, d) table sliced by x.size(0) varies along the sequence axis and broadcasts over the batch: this is the right layout for nn.TransformerEncoder's default batch_first=False. The key padding mask is (batch, seq) as that API expects."),
    )
