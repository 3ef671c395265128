from lib import *

NAME = "g14_protein_inverse_folding"
FIX = [("return rank.unsqueeze(2) >= rank.unsqueeze(1)", "return rank.unsqueeze(2) > rank.unsqueeze(1)")]
K = 6


def rank(a):
    X, S, mask, noise = a
    return torch.argsort(torch.argsort(noise + (~mask).float() * 1e4, dim=-1), dim=-1)


def result():
    return prove(
        NAME, "buggy", harm="causal", fix=FIX,
        checks={
            # change the identities of every residue decoded at step K or later;
            # residues decoded at steps <= K must not notice
            "causal": (perturb(1, lambda a, k: rank(a) >= K, 0, 21), lambda o, a, k: o[rank(a) <= K]),
            "padding": (chain(perturb(0, lambda a, k: ~a[2]), perturb(1, lambda a, k: ~a[2], 0, 21)),
                        lambda o, a, k: o[a[2]]),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 0, 21)), samp(0)),
        },
        note="causal is taken in the random decoding order given by `noise`",
        label=dict(expected=["causal-leak"], line_sub="return rank.unsqueeze(2) >= rank.unsqueeze(1)",
                   also_subs=["visible = backward_mask(decoding_ranks(noise, mask)).unsqueeze(-1).float()"],
                   also_ok_codes=[], consequence_codes=[],
                   why="The decoder's keys carry the native amino acid of residue j (not shifted), so residue i may only see residues decoded strictly before it; with `>=` the diagonal is visible and each residue reads its own target identity. The logits of the residue decoded at step K change when only the identities of residues decoded at step K or later change."),
    )
