from lib import *

NAME = "w26_swinv2_cosine_attn"


def window(i, j):
    return lambda a, k: ((torch.arange(8)[:, None] // 4 == i) & (torch.arange(8)[None, :] // 4 == j))[None].expand(a[0].shape[:3])


def sdpa_ref(att, x):
    Bw, N, C = x.shape
    bias = torch.cat([att.q_bias, torch.zeros_like(att.v_bias), att.v_bias])
    q, k, v = F.linear(x, att.qkv.weight, bias).reshape(Bw, N, 3, att.heads, -1).permute(2, 0, 3, 1, 4)
    tau = att.logit_scale.clamp(max=math.log(100.0)).exp()
    rpb = 16 * torch.sigmoid(att.cpb_mlp(att.rel_coords)).permute(2, 0, 1)
    # SDPA with scale=1 on unit vectors; the temperature is folded into q
    o = F.scaled_dot_product_attention(F.normalize(q, dim=-1) * tau, F.normalize(k, dim=-1), v, attn_mask=rpb, scale=1.0)
    return att.proj(o.transpose(1, 2).reshape(Bw, N, C))


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, sample(0, 1)), samp(0)),
            "window": (perturb(0, window(0, 0)), lambda o, a, k: o[:, 4:, :]),
        },
        ref=module_ref(lambda m: m.attn, sdpa_ref),
        note="window = changing the top-left 4x4 window leaves the bottom half unchanged; ref = SDPA on unit q, k with the clamped temperature folded into q",
        label=dict(line_sub="attn = attn * logit_scale",
                   why="Swin V2's scaled cosine attention compares L2-normalized queries and keys and multiplies by a learned temperature clamped at 100, instead of 1/sqrt(d): the logits are cosines in [-1, 1] times tau, by design. The softmax runs over the keys of each window, and the window partition/reverse are inverse permutations."),
    )
