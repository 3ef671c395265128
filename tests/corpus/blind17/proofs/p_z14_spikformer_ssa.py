from lib import *

NAME = "z14_spikformer_ssa"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 0)), samp(1))},
        ref=solo(2),
        label=dict(line_sub="attn = (q @ k.transpose(-2, -1)) * self.scale",
                   why="Spiking self-attention has no softmax by design: Q, K, V are non-negative spike trains and Q K^T V is scaled by the paper's constant 0.125; BatchNorm in eval uses running statistics, so samples stay independent and the LIF thresholds are deterministic."),
    )
