from lib import *

NAME = "x26_transducer_joiner_add"

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
        NAME, "buggy", harm="axis",
        fix=[("joint = torch.tanh(self.enc_proj(enc) + self.pred_proj(pred))",
              "joint = torch.tanh(self.enc_proj(enc).unsqueeze(2) + self.pred_proj(pred).unsqueeze(1))")],
        checks={
            "padding": (perturb(0, pads), realf),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 1, 20)), samp(0)),
        },
        ref=lattice_ref,
        note="ref = the (B, T, U+1, V) lattice recomputed pointwise from the encoder and predictor outputs (inf: the buggy output is (B, T, V))",
        label=dict(expected=["axis-mismatch"], also_ok_codes=[],
                   line_sub="joint = torch.tanh(self.enc_proj(enc) + self.pred_proj(pred))", also_subs=[], consequence_codes=[],
                   why="enc is (B, T, d) over audio frames and pred is (B, U + 1, d) over label prefixes; here T = 9 = U + 1 only by coincidence, so the sum adds frame t to label prefix t elementwise and returns a (B, T, V) diagonal instead of the (B, T, U + 1, V) transducer lattice. The joiner must broadcast: enc.unsqueeze(2) + pred.unsqueeze(1)."),
    )
