from lib import *

NAME = "f18_multidoc_summarization_encoder"


def attn_ref(m, x, allowed):
    B, T, D = x.shape
    q, k, v = m.qkv(x).view(B, T, 3, m.heads, m.dh).permute(2, 0, 3, 1, 4)
    s = (q @ k.transpose(-1, -2) / math.sqrt(m.dh)).masked_fill(~allowed[:, None], float("-inf"))
    return m.out((s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D))


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attn = scores.softmax(dim=-1)\n        attn = attn.masked_fill(~allowed[:, None], 0.0)",
              "attn = scores.masked_fill(~allowed[:, None], float(\"-inf\")).softmax(dim=-1)")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 4, 400), lambda o, a, k: o[get(a, k, 1) > 0]),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1] > 0), 4, 400), samp(0)),
        },
        ref=module_ref(lambda m: m.attn[0], attn_ref),
        note="ref = first attention vs masked softmax over the allowed keys",
        label=dict(expected=["mask-after-softmax"], line_sub="attn = attn.masked_fill(~allowed[:, None], 0.0)",
                   also_subs=["attn = scores.softmax(dim=-1)"], also_ok_codes=[], consequence_codes=["padding-leak"],
                   why="The softmax is taken over every key (other documents and batch padding included) and the disallowed weights are zeroed afterwards without renormalizing. The surviving weights no longer sum to one and their scale depends on the padded positions and the other documents, so outputs at real tokens change with the padding content."),
    )
