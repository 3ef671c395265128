from lib import *

NAME = "f11_robot_policy_readouts"


def readout_isolation(mod):
    """observation-token outputs must not change when only the readout tokens change"""
    model, args, kw = build(mod)
    K = model.k_obs
    a = run(model, args, kw, lambda o: o[1][:, :, :K])
    with torch.no_grad():
        g = torch.Generator().manual_seed(3)
        model.readouts.copy_(torch.randn(model.readouts.shape, generator=g))
    b = run(model, args, kw, lambda o: o[1][:, :, :K])
    return maxdiff(a, b)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, 1)), upto(1)),
            "padding": (perturb(1, where_eq(2, 0)), real(2)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0)),
        },
        ref=readout_isolation,
        note="ref = change of the observation-token outputs when only the readout tokens are replaced",
        label=dict(line_sub="return reads & not_future & (~readout_pair | same_step)",
                   why="The group table, the step order and the same-step rule for readout pairs implement Octo's block mask (observations never read readouts, nothing reads the future); every query keeps the task tokens visible so padded steps never leave an empty row, and the mask is passed with True = blocked as nn.TransformerEncoder expects."),
    )
