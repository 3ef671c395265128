from lib import *

NAME = "x20_vivit_factorized_merge"


def sdpa_ref(att, x):
    b, n, _ = x.shape
    q, k, v = att.to_qkv(x).chunk(3, dim=-1)
    q, k, v = (t.reshape(b, n, att.heads, -1).transpose(1, 2) for t in (q, k, v))
    o = F.scaled_dot_product_attention(q, k, v)
    return att.to_out(o.transpose(1, 2).reshape(b, n, -1))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("        out = out.reshape(b, n, -1)", '        out = rearrange(out, "b h n d -> b n (h d)")')],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.space_transformer.layers[0][1], sdpa_ref),
                 module_ref(lambda m: m.temporal_transformer.layers[0][1], sdpa_ref)),
        note="ref = the first spatial and temporal attentions against SDPA with the standard head merge",
        label=dict(expected=["head-merge"], also_ok_codes=[], line_sub="        out = out.reshape(b, n, -1)",
                   also_subs=[], consequence_codes=[],
                   why="out is (b, heads, n, dim_head). reshape(b, n, -1) reads it head-major: merged row i holds the outputs of positions 4i..4i+3 (mod n, running from one head into the next) instead of all heads at position i, so each token's vector mixes other tokens' attention results (the frame [CLS] row carries patch outputs). The heads must be moved next to the features first: 'b h n d -> b n (h d)'."),
    )
