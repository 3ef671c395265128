from lib import *

NAME = "v19_baddbmm_scale"

def reference_attention(attn, x, key_padding):
    B, T, D = x.shape
    H, dh = attn.num_heads, attn.head_dim
    q, k, v = attn.in_proj(x).view(B, T, 3, H, dh).permute(2, 0, 3, 1, 4)
    pos = torch.arange(T)
    rel = (pos[None, :] - pos[:, None]).clamp(-attn.max_rel, attn.max_rel) + attn.max_rel
    bias = attn.rel_table[rel].permute(2, 0, 1)[None].masked_fill(key_padding[:, None, None, :], float("-inf"))
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)        # default scale 1/sqrt(head_dim)
    return attn.out_proj(o.transpose(1, 2).reshape(B, T, D))


def ref(mod):
    model, args, kw = build(mod)
    attn = model.attn[0]
    g = torch.Generator().manual_seed(3)
    x = torch.randn(3, 11, 32, generator=g)
    kp = torch.zeros(3, 11, dtype=torch.bool)
    kp[1, 7:] = True
    with torch.no_grad():
        return maxdiff(attn(x, kp), reference_attention(attn, x, kp))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("alpha=1.0 / math.sqrt(self.embed_dim)", "alpha=1.0 / math.sqrt(self.head_dim)")],
        checks={"batch": (perturb(0, sample(0, 1), 1, 80), samp(0))},
        ref=refs(ref, solo_cut(1, {0: 7}), solo_cut(2, {0: 5})),
        note="ref = SDPA with the same bias and its default 1/sqrt(head_dim) scale; and each padded sample alone, cut to its real tokens (the pad mask comes from the ids)",
        label=dict(expected=["scale-factor"],
                   line_sub="scores = torch.baddbmm(bias, q, k.transpose(1, 2), alpha=1.0 / math.sqrt(self.embed_dim))",
                   why="q and k are per-head (B*H, T, head_dim = 8), so the product contracts 8 features and should be scaled by 1/sqrt(8); alpha = 1/sqrt(embed_dim) = 1/sqrt(32) halves every content score and lets the relative-position bias dominate."),
    )
