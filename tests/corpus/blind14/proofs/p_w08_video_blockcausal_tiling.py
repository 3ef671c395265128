from lib import *

NAME = "w08_video_blockcausal_tiling"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("mask = frame_causal.repeat(P, P)", "mask = frame_causal.repeat_interleave(P, dim=0).repeat_interleave(P, dim=1)")],
        checks={
            "causal": (perturb(0, after(0, 1)), upto(1)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="causal = changing frames 2.. moves the predictions of frames 0..1",
        label=dict(expected=["causal-leak"], also_ok_codes=[], line_sub="mask = frame_causal.repeat(P, P)",
                   also_subs=["frame_causal = torch.ones(Fr, Fr, dtype=torch.bool, device=x.device).tril()",
                             "out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)"],
                   consequence_codes=[],
                   why="Tokens are laid out frame-major (index = f * P + p), so the frame-level mask must be expanded with repeat_interleave on both axes. repeat(P, P) tiles it instead: token index n is treated as frame n % Fr, and e.g. the first patch of frame 0 sees patches of frames 1, 2 and 3. Predictions for early frames depend on later frames."),
    )
