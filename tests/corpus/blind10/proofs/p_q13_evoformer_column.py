from lib import *

NAME = "q13_evoformer_column"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("logits = logits + self.inf * (msa_mask[:, :, None, None, :] - 1)",
              "logits = logits + self.inf * (msa_mask.transpose(-1, -2)[:, :, None, None, :] - 1)")],
        checks={
            "padding": (perturb(0, where_eq(1, 0)), real(1)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="m is transposed to [B,L,S,c] but msa_mask [B,S,L] is not; S == L == 6 hides the mismatch; real sequences attend to padded MSA rows",
        label=dict(expected=["axis-mismatch"], line_sub="logits = logits + self.inf * (msa_mask[:, :, None, None, :] - 1)",
                   also_subs=["m = m.transpose(-2, -3)  # [B, L, S, c_m]"],
                   also_ok_codes=["mask-axis"], consequence_codes=["padding-leak"],
                   why="After transposing m to [B, L, S, c] the mask is still indexed as [B, S, L]; since S == L the shapes agree, but the key mask now hides residue columns instead of padded sequences."),
    )
