from lib import *

NAME = "v33_channels_last_attention"

def pixel_permutation(mod):
    """attention over pixels without positions is permutation-equivariant (GroupNorm and 1x1 convs too)"""
    model, args, kw = build(mod)
    x = args[0]
    B, C, H, W = x.shape
    perm = torch.randperm(H * W, generator=torch.Generator().manual_seed(4))
    xp = x.flatten(2)[:, :, perm].reshape(B, C, H, W).contiguous(memory_format=torch.channels_last)
    o = run(model, (x,), kw).flatten(2)[:, :, perm]
    op = run(model, (xp,), kw).flatten(2)
    return maxdiff(o, op)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=pixel_permutation,
        note="ref = permuting the pixels permutes the output the same way",
        label=dict(line_sub="seq = qkv.permute(0, 2, 3, 1).reshape(B, H * W, 3, self.h, C // self.h)",
                   why="permute(0, 2, 3, 1) moves channels last regardless of memory format, so the sequence axis is the H*W pixels and the features are channels; the output is rebuilt with the inverse permutation. GroupNorm normalises per sample over channel groups and pixels by design."),
    )
