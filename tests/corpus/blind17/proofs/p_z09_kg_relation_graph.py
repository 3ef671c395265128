from lib import *

NAME = "z09_kg_relation_graph"


def attn_ref(m, h, rel):
    B, N, D = h.shape
    H, dh = m.heads, m.d_head
    q = m.w_q(h).view(B, N, H, dh).transpose(1, 2)
    k = m.w_k(h).view(B, N, H, dh).transpose(1, 2)
    v = m.w_v(h).view(B, N, H, dh).transpose(1, 2)
    bias = m.rel_bias(rel).permute(0, 3, 1, 2)
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    return m.w_o(o.transpose(1, 2).reshape(B, N, D))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("alpha = torch.softmax(logits, dim=-2)", "alpha = torch.softmax(logits, dim=-1)")],
        checks={"batch": (perturb(0, sample(0, 2), 0, 200), samp(0))},
        ref=module_ref(lambda m: m.layers[0], attn_ref),
        label=dict(expected=["softmax-axis"], line_sub="alpha = torch.softmax(logits, dim=-2)",
                   why="The attention logits are laid out (b, h, i, j) with j the key node, but the softmax normalizes over i (dim=-2), so each node's weights over its neighbours do not sum to 1 and keys compete across queries."),
    )
