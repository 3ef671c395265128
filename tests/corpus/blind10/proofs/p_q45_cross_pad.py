from lib import *

NAME = "q45_cross_pad"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, where_eq(1, 0), 1, 50), perturb(2, where_eq(3, 0), 1, 50, seed=2)), whole()),
            "batch": (chain(perturb(0, both(sample(0, 1), where_eq(1, 1)), 1, 50),
                            perturb(2, both(sample(2, 1), where_eq(3, 1)), 1, 50)), samp(0)),
        },
        note="sequence-first nn.MultiheadAttention; key_padding_mask True = pad on both the query text (self-attn) and the document (cross-attn); masked mean pool over real query tokens",
        label=dict(expected=[], line_sub="q = self.n2(q + self.cross_attn(q, kv, kv, key_padding_mask=kv_pad, need_weights=False)[0])",
                   also_subs=["q_pad, d_pad = query_mask == 0, doc_mask == 0"],
                   why="Key padding masks (True = pad) for both sides; the (T, B, E) layout matches nn.MultiheadAttention's default batch_first=False; pooling divides by the number of real query tokens."),
    )
