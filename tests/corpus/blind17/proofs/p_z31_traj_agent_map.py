from lib import *

NAME = "z31_traj_agent_map"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("        attn = scores.softmax(-1)\n        return self.o(",
              "        attn = scores.softmax(-1).nan_to_num(0.0)  # agents with no lane in range\n        return self.o(")],
        checks={"padding": (perturb(2, where_eq(3, False)), lambda o, a, k: o[a[1]])},
        label=dict(expected=["fully-masked-row"], consequence_codes=["nan"],
                   line_sub="scores = scores.masked_fill(~visible[:, None], float(\"-inf\"))",
                   why="A real agent with no valid lane inside the radius has every key filled with -inf, its softmax row is NaN, and the NaN spreads to every agent of that scene through the agent-agent attention."),
    )
