from lib import *

NAME = "y12_levit_attention_bias"


def ref_attn(m, x):
    B, N, C = x.shape
    qkv = m.qkv(x).view(B, N, m.num_heads, -1)
    q, k, v = qkv.split([m.key_dim, m.key_dim, m.d], dim=3)
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    r = 4
    ys, xs = torch.arange(N) // r, torch.arange(N) % r
    dy = (ys[:, None] - ys[None, :]).abs()
    dx = (xs[:, None] - xs[None, :]).abs()
    # offsets were enumerated in order of first appearance; rebuild the same index map
    order = {}
    for a, b in zip(dy.flatten().tolist(), dx.flatten().tolist()):
        order.setdefault((a, b), len(order))
    idx = torch.tensor([order[(a, b)] for a, b in zip(dy.flatten().tolist(), dx.flatten().tolist())]).view(N, N)
    bias = m.attention_biases[:, idx]
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    return m.proj(o.transpose(1, 2).reshape(B, N, -1))


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 0)), samp(1))},
        ref=module_ref(lambda m: m.attn[0], ref_attn),
        note="ref: SDPA with key_dim scale and the per-head |dx|,|dy| bias",
        label=dict(line_sub="attn = (q @ k.transpose(-2, -1)) * self.scale + bias",
                   why="Keys are key_dim wide and values attn_ratio*key_dim wide, so the 1/sqrt(key_dim) scale is right; the per-head bias is gathered by the absolute offset between query and key cells and cached in eval, and the softmax is over keys."),
    )
