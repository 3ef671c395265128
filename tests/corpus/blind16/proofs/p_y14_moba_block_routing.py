from lib import *

NAME = "y14_moba_block_routing"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("return chosen.repeat_interleave(block_size, dim=-1)",
              "causal = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()\n"
              "    return chosen.repeat_interleave(block_size, dim=-1) & causal")],
        checks={"causal": (perturb(0, after(0, 9), 0, 100), upto(9)),
                "batch": (perturb(0, sample(0, 0), 0, 100), samp(1))},
        label=dict(expected=["causal-leak"], line_sub="return chosen.repeat_interleave(block_size, dim=-1)",
                   also_subs=["chosen = chosen | (blk[None, :] == q_block[:, None])"],
                   why="The query's own block is switched on as a whole when the block mask is expanded to tokens, without the token-level causal triangle, so each query also attends to the later tokens of its block."),
    )
