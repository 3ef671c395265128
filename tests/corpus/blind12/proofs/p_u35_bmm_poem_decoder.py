from lib import *

NAME = "u35_bmm_poem_decoder"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[('self.register_buffer("future", torch.ones(block_size, block_size).triu())',
              'self.register_buffer("future", torch.ones(block_size, block_size).triu(1))')],
        checks={
            "causal": (perturb(0, after(0, 4), 0, 90), upto(4)),
            "batch": (perturb(0, sample(0, 1), 0, 90), samp(0)),
        },
        note="triu() keeps the diagonal: each token is blocked from itself, and token 0 has every key blocked, so its -1e9 row is uniform over all 12 positions",
        label=dict(expected=["causal-diagonal"], line_sub='self.register_buffer("future", torch.ones(block_size, block_size).triu())',
                   also_subs=["scores = scores.masked_fill(self.future[:T, :T] == 1, -1e9)"],
                   also_ok_codes=["fully-masked-row"], consequence_codes=["fully-masked-row", "causal-leak"],
                   why="torch.ones(T, T).triu() includes the main diagonal, so the mask hides the current token from itself; the first row is then fully masked, and with the finite -1e9 fill its softmax is uniform over every position, future included (a causal leak from position 0 onward through the next layer)."),
    )
