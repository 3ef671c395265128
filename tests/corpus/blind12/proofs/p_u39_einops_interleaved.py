from lib import *

NAME = "u39_einops_interleaved"


def per_head_loop(mod):
    """reference: each head gathers its strided features (index d*H + h) and attends alone"""
    model, args, kw = build(mod)
    attn = model.layers[0][1]
    torch.manual_seed(0)
    x = torch.randn(2, 10, 32)
    mask = torch.arange(10)[None] < torch.tensor([10, 6])[:, None]
    H, D = attn.heads, 32
    dh = D // H
    with torch.no_grad():
        got = attn(x, mask)
        qkv = attn.to_qkv(x)
        merged = torch.zeros(2, 10, D)
        for h in range(H):
            idx = torch.arange(dh) * H + h
            q, k, v = qkv[..., idx], qkv[..., D + idx], qkv[..., 2 * D + idx]
            s = (q @ k.transpose(1, 2)) * attn.scale
            s = s.masked_fill(~mask[:, None, :], float("-inf"))
            merged[..., idx] = s.softmax(-1) @ v
        ref = attn.to_out(merged)
    return maxdiff(got[mask], ref[mask])


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: ~get(a, k, 1), 1, 25), real(1, keep=True)),
            "batch": (perturb(0, sample(0, 1), 1, 25), samp(0)),
        },
        ref=refs(per_head_loop, solo(1, n=9), solo(2, n=5)),
        label=dict(expected=[], line_sub='q, k, v = rearrange(self.to_qkv(x), "b n (qkv d h) -> qkv b h n d", qkv=3, h=self.heads)',
                   why="Splitting the projection as (d h) instead of (h d) only assigns strided feature indices to each head; the merge uses the same (d h) order, so this is ordinary multi-head attention under a fixed permutation of the weights (equal to a per-head loop over indices d*H + h). The sequence axis n is never mixed with features."),
    )
