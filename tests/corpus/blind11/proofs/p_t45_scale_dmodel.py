from lib import *

NAME = "t45_scale_dmodel"


def against_torch(mod):
    """the module must match nn.MultiheadAttention with the same weights"""
    torch.manual_seed(0)
    mine = mod.MultiHeadAttention(64, 4).eval()
    ref = torch.nn.MultiheadAttention(64, 4, batch_first=True).eval()
    with torch.no_grad():
        ref.in_proj_weight.copy_(mine.in_proj.weight)
        ref.in_proj_bias.copy_(mine.in_proj.bias)
        ref.out_proj.weight.copy_(mine.out_proj.weight)
        ref.out_proj.bias.copy_(mine.out_proj.bias)
        x = torch.randn(2, 9, 64) * 3
        pad = torch.arange(9)[None] >= torch.tensor([9, 6])[:, None]
        a = mine(x, key_padding_mask=pad)
        b = ref(x, x, x, key_padding_mask=pad, need_weights=False)[0]
    return maxdiff(a[~pad], b[~pad])


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("/ math.sqrt(self.embed_dim)", "/ math.sqrt(self.head_dim)")],
        checks={
            "padding": (perturb(0, where_eq(1, True), 1, 60), real(1, keep=False)),
            "batch": (perturb(0, sample(0, 1), 1, 60), samp(0)),
        },
        ref=against_torch,
        note="scores divided by sqrt(64) instead of sqrt(16): softmax twice as flat as intended",
        label=dict(expected=["scale-factor"], line_sub="/ math.sqrt(self.embed_dim)",
                   why="The contracted size of each head's q.k product is head_dim = 16; dividing by sqrt(embed_dim) = 8 instead of 4 halves every score, so the module does not match nn.MultiheadAttention."),
    )
