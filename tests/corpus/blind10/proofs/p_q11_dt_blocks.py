from lib import *

NAME = "q11_dt_blocks"
T = 4


def result():
    fut = chain(perturb(0, after(0, T)), perturb(1, after(1, T)), perturb(2, after(2, T - 1)))
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("step_mask = step_mask.repeat_interleave(3, 0).repeat_interleave(3, 1)",
              "step_mask = torch.tril(torch.ones(3 * context, 3 * context))")],
        checks={
            "causal": (fut, lambda o, a, k: o[:, : T + 1][a[4][:, : T + 1] == 1]),
            "padding": (chain(perturb(1, where_eq(4, 0), seed=5), perturb(2, where_eq(4, 0), seed=6)), real(4)),
            "batch": (chain(perturb(1, sample(1, 1)), perturb(2, sample(2, 1))), samp(0)),
        },
        note="causal region = real positions <= T (left-pad query rows are uniform by design); timestep-level tril expanded 3x3 lets the s_t token (which predicts a_t) see a_t itself (and R_t sees s_t, a_t)",
        label=dict(expected=["causal-leak"], line_sub="step_mask = step_mask.repeat_interleave(3, 0).repeat_interleave(3, 1)",
                   also_subs=["step_mask = torch.tril(torch.ones(context, context))"],
                   why="The causal mask is built per timestep and blown up to 3x3 blocks, so within a timestep the return and state tokens attend to the later action token they are meant to predict."),
    )
