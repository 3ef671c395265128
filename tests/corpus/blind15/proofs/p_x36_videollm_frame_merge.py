from lib import *

NAME = "x36_videollm_frame_merge"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("        x = t.reshape(B, Fr, S, D)\n", "        x = t.reshape(Fr, B, S, D).permute(1, 0, 2, 3)\n")],
        checks={
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 0, 64)), samp(0)),
            "causal": (perturb(1, after(1, 4), 0, 64), upto(4)),
        },
        ref=refs(solo(1), solo(2)),
        note="batch = changing video 1 (and its prompt) moves the logits of sample 0; ref = each sample run alone",
        label=dict(expected=["batch-leak"], also_ok_codes=["axis-mismatch"], line_sub="        x = t.reshape(B, Fr, S, D)\n",
                   also_subs=[], consequence_codes=[],
                   why="nn.MultiheadAttention without batch_first works on (frames, B*S, D), and its output keeps that frame-major layout. Reshaping it straight to (B, Fr, S, D) regroups memory: 'sample 0' receives frame 0 of samples 0, 1 and 2 and frame 1 of samples 0 and 1, so each prompt is answered with visual tokens taken from other videos of the batch. It must be reshaped to (Fr, B, S, D) and permuted back."),
    )
