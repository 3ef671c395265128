from lib import *

NAME = "u25_beam_gru_reorder"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("beam_idx = (idx // V).view(-1)",
              "beam_idx = (idx // V + torch.arange(B, device=idx.device)[:, None] * K).view(-1)")],
        checks={"batch": (perturb(0, sample(0, 0)), lambda o, a, k: o[1:])},
        ref=refs(solo(1), solo(2)),
        note="beam indices are 0..K-1 within a sample but index rows of the flattened (B*K) state: every sample continues from sample 0's GRU states",
        label=dict(expected=["batch-leak"], line_sub="beam_idx = (idx // V).view(-1)",
                   also_subs=["h = h.index_select(0, beam_idx)"],
                   why="idx // V is the beam within its own sample (0..K-1), but the GRU state is laid out as B*K rows; without the b*K offset every sample's beams are continued from rows of sample 0, so the captions of samples 1 and 2 depend on image 0."),
    )
