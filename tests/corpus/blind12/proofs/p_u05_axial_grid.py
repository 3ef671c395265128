from lib import *

NAME = "u05_axial_grid"


def loops(mod):
    """reference: each row, then each column, attended one at a time"""
    model, args, kw = build(mod)
    blk = model.blocks[0]
    torch.manual_seed(0)
    x = torch.randn(2, 6, 8, 32)  # non-square grid, so rows and columns cannot be confused
    with torch.no_grad():
        got = blk.attend_cols(x + blk.attend_rows(x))
        r = torch.zeros_like(x)
        for b in range(2):
            for i in range(6):
                t = blk.norm_row(x[b, i])[None]
                r[b, i] = blk.row_attn(t, t, t)[0][0]
        y = x + r
        c = torch.zeros_like(x)
        for b in range(2):
            for j in range(8):
                t = blk.norm_col(y[b, :, j])[None]
                c[b, :, j] = blk.col_attn(t, t, t)[0][0]
    return maxdiff(got, c)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=loops,
        label=dict(expected=[], line_sub='t = rearrange(self.norm_col(x), "b h w c -> (b w) h c")',
                   why="Rows are folded as (b h) w and columns as (b w) h with the matching inverse rearranges, so each MHA call attends along one image axis only; it equals a loop over rows and then columns. Folding the grid axes into the batch axis is by design."),
    )
