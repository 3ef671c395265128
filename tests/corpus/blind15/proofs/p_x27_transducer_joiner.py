from lib import *

NAME = "x27_transducer_joiner"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]
realf = lambda o, a, k: o[~pads(a, k)]


def lattice_ref(mod):
    """the joint output must hold one distribution per (frame t, label prefix u): recompute it pointwise
    from the encoder and predictor outputs"""
    model, args, kw = build(mod)
    out = run(model, args, kw)
    with torch.no_grad():
        enc = model.encoder(args[0], args[1])
        pred = model.predictor(args[2])
        J = model.joiner
        want = torch.stack([torch.stack([J.out(torch.tanh(J.enc_proj(enc[:, t]) + J.pred_proj(pred[:, u]))).log_softmax(-1)
                                         for u in range(pred.size(1))], dim=1) for t in range(enc.size(1))], dim=1)
    return maxdiff(out, want) if out.shape == want.shape else float("inf")


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads), realf),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 1, 20)), samp(0)),
            "labels": (perturb(2, lambda a, k: torch.arange(8)[None, :] >= 4, 1, 20), lambda o, a, k: o[:, :, :5]),
        },
        ref=refs(lattice_ref, solo_cut(1, {0: 7}, out_cut=7), solo_cut(2, {0: 5}, out_cut=5)),
        note="labels = changing labels 4.. leaves the lattice columns u <= 4 unchanged; ref = pointwise lattice, and each utterance's frames cut to its length",
        label=dict(line_sub="joint = torch.tanh(self.enc_proj(enc).unsqueeze(2) + self.pred_proj(pred).unsqueeze(1))",
                   why="The joiner broadcasts (B, T, 1, j) + (B, 1, U + 1, j) into the (B, T, U + 1, V) lattice: entry (t, u) combines frame t with the prediction after u labels. T = U + 1 = 9 here, but the two axes are kept apart. The encoder masks padded frames as keys; the LSTM predictor reads the label prefix left to right, so column u depends on labels < u only."),
    )
