from lib import *

NAME = "g18_contract_clause_retrieval"
FIX = [("scale = q.size(-1) ** -0.5", "scale = (q.size(-1) // self.heads) ** -0.5")]


def attn_ref(sub, x, mask):
    B, T, D = x.shape
    q, k, v = sub.qkv(x).chunk(3, dim=-1)
    sp = lambda t: t.view(B, T, sub.heads, -1).transpose(1, 2)
    o = F.scaled_dot_product_attention(sp(q), sp(k), sp(v), attn_mask=mask[:, None, None, :])
    return sub.proj(o.transpose(1, 2).reshape(B, T, D))


def result():
    return prove(
        NAME, "buggy", harm="numeric", fix=FIX,
        checks={
            "query_batch": (perturb(0, sample(0, 1), 1, 400), lambda o, a, k: o[[0, 2]]),
            "padding": (keep, whole(), pad_row(lambda m: m.tok, 0)),
        },
        ref=refs(module_ref(lambda m: m.layers[0].attn, attn_ref), module_ref(lambda m: m.layers[1].attn, attn_ref)),
        note="ref = SDPA (scale 1/sqrt(head_dim) = 1/sqrt(12)); the bug uses 1/sqrt(48)",
        label=dict(expected=["scale-factor"], line_sub="scale = q.size(-1) ** -0.5",
                   also_subs=["scores = (q @ k.transpose(-2, -1)) * scale"], also_ok_codes=[], consequence_codes=[],
                   why="The scale is read from q before the head split, so it is 1/sqrt(d_model) = 1/sqrt(48) instead of 1/sqrt(d_head) = 1/sqrt(12); the logits are half as sharp as intended. The contracted size of q @ k^T is the head width."),
    )
