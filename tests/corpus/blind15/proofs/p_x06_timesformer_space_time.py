from lib import *

NAME = "x06_timesformer_space_time"


def sdpa_ref(att, x):
    B, N, C = x.shape
    q, k, v = att.to_qkv(x).chunk(3, dim=-1)
    q, k, v = (t.view(B, N, att.heads, -1).transpose(1, 2) for t in (q, k, v))
    o = F.scaled_dot_product_attention(q, k, v)
    return att.to_out(o.transpose(1, 2).reshape(B, N, C))


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.blocks[0].attn_t, sdpa_ref), module_ref(lambda m: m.blocks[1].attn_s, sdpa_ref)),
        note="ref = the time and space attentions against SDPA on the same inputs",
        label=dict(line_sub="attn = scores.softmax(dim=-1)",
                   why="The softmax runs over j, the axis the second einsum contracts. Time attention folds the patch axis into the batch ((b n) f d), space attention folds the frames ((b f) n d), and each rearrange is undone with the same pattern; pos_time (1, F, 1, d) varies along frames and pos_space (1, 1, N, d) along patches by design; the class token is replicated per frame and averaged back."),
    )
