from lib import *

NAME = "t03_superglue_sinkhorn"


def result():
    s1 = lambda k: perturb(k, sample(k, 1))
    return prove(
        NAME, "correct",
        checks={"batch": (chain(s1(0), s1(1), s1(2), s1(3)), samp(0))},
        ref=solo(0, pooled=True),
        note="channels-first (B,d,H,N) attention; Sinkhorn alternates logsumexp over rows and columns by design",
        label=dict(expected=[], line_sub="v = log_nu - torch.logsumexp(Z + u.unsqueeze(2), dim=1)",
                   why="SuperGlue's attention is channels-first: view(B, d_h, H, N) splits the channel axis (heads innermost), the softmax runs over the key keypoints (m); the Sinkhorn iterations normalize rows then columns in log space on purpose."),
    )
