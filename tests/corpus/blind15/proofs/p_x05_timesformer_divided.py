from lib import *

NAME = "x05_timesformer_divided"


def sdpa_ref(att, x):
    B, N, C = x.shape
    q, k, v = att.to_qkv(x).chunk(3, dim=-1)
    q, k, v = (t.view(B, N, att.heads, -1).transpose(1, 2) for t in (q, k, v))
    o = F.scaled_dot_product_attention(q, k, v)
    return att.to_out(o.transpose(1, 2).reshape(B, N, C))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("attn = scores.softmax(dim=-2)", "attn = scores.softmax(dim=-1)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=module_ref(lambda m: m.blocks[0].attn_t, sdpa_ref),
        note="ref = the first time attention against SDPA on the same input",
        label=dict(expected=["softmax-axis"], also_ok_codes=[], line_sub="attn = scores.softmax(dim=-2)",
                   also_subs=[], consequence_codes=[],
                   why="scores is (b, h, i, j) and the second einsum sums over j (keys), so the softmax belongs on dim=-1. dim=-2 normalizes each key's column over the queries: the weights a query gives the keys no longer sum to 1, in the time attention (over 4 frames) and in the space attention (over 16 patches) alike."),
    )
