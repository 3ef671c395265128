from lib import *

NAME = "a09_nowcasting_axial_attention"


def axial_ref(m, x):
    b, H, W, c = x.shape
    qkv = m.to_qkv(x)
    q, k, v = qkv.chunk(3, dim=-1)
    g = m.heads
    q, k, v = (t.view(b, H, W, g, c // g) for t in (q, k, v))
    if m.axis == "w":
        s = torch.einsum("bhigd,bhjgd->bhgij", q, k) / math.sqrt(c // g)
        o = torch.einsum("bhgij,bhjgd->bhigd", s.softmax(-1), v)
    else:
        s = torch.einsum("biwgd,bjwgd->bwgij", q, k) / math.sqrt(c // g)
        o = torch.einsum("bwgij,bjwgd->biwgd", s.softmax(-1), v)
    return m.proj(o.reshape(b, H, W, c))


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.blocks[0].row, axial_ref), module_ref(lambda m: m.blocks[1].col, axial_ref)),
        label=dict(line_sub='out = self.proj(rearrange(out, "n g l e -> n l (g e)"))',
                   why="Rows and columns are folded into the batch with einops and unfolded with b=b; heads are split and merged with named axes, so each axial attention equals an independent per-row / per-column multi-head attention."),
    )
