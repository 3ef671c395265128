from lib import *

NAME = "t30_maxvit_grid"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[('self.grid_attn = PartitionAttention(dim, heads, size, "grid", batch_first=False)',
              'self.grid_attn = PartitionAttention(dim, heads, size, "grid", batch_first=True)')],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=solo(0, pooled=True),
        note="(windows, tokens, C) fed to a seq-first nn.MultiheadAttention: attention runs across the windows of all samples",
        label=dict(expected=["batch-leak"], line_sub='self.grid_attn = PartitionAttention(dim, heads, size, "grid", batch_first=False)',
                   also_subs=["y = self.attn(t, t, t, need_weights=False)[0]"],
                   also_ok_codes=["softmax-axis"],
                   why="The grid windows are laid out (B*num_windows, g*g, C) but the grid layer's nn.MultiheadAttention is seq-first, so it treats the window axis as the sequence: each grid position attends across all windows of all samples of the batch."),
    )
