from lib import *

NAME = "e20_phi_keyphrase_pointer_head"


def head_ref(m, h, attention_mask):
    q = m.q(m.slots)[None].expand(h.size(0), -1, -1)
    k, v = m.k(h), m.v(h)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=(attention_mask[:, None, :] != 0))
    return out


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("/ math.sqrt(self.hidden)", "/ math.sqrt(q.size(-1))")],
        ref=module_ref(lambda m: m.head, head_ref),
        note="ref: the slot head vs SDPA (scale 1/sqrt(d_head)) on the same hidden states",
        label=dict(expected=["scale-factor"], line_sub="/ math.sqrt(self.hidden)",
                   why="The slot-token scores contract over d_head=16 but are divided by sqrt(hidden)=8 instead of 4, flattening the slot attention relative to scaled dot-product attention."),
    )
