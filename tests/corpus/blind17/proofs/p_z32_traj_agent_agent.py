from lib import *

NAME = "z32_traj_agent_agent"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, False)), lambda o, a, k: o[a[1]]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        label=dict(line_sub="allowed = agent_mask[:, None, :] | (eye & ~agent_mask[:, :, None])",
                   why="Keys are restricted to real agents; a padded agent's row keeps only its own diagonal so it stays finite, and that exception never adds a padded key to a real agent's row, so real predictions ignore the padded histories."),
    )
