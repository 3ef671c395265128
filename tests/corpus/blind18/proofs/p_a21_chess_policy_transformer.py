from lib import *

NAME = "a21_chess_policy_transformer"


def attn_ref(m, x):
    B = x.size(0)
    q = m.wq(x).view(B, 64, m.h, m.dk)
    k = m.wk(x).view(B, 64, m.h, m.dk)
    v = m.wv(x).view(B, 64, m.h, m.dk)
    s = torch.einsum("bihc,bjhc->bhij", q, k) / math.sqrt(m.dk) + m.square_bias
    o = torch.einsum("bhij,bjhc->bihc", s.softmax(-1), v).reshape(B, 64, -1)
    return m.wo(o)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 0, 2)), samp(0))},
        ref=refs(module_ref(lambda m: m.blocks[0].attn, attn_ref), module_ref(lambda m: m.blocks[1].attn, attn_ref)),
        label=dict(line_sub="out = F.scaled_dot_product_attention(q, k, v, attn_mask=self.square_bias.unsqueeze(0))",
                   why="A float attn_mask is added to the scores, so the per-head (64, 64) square-pair table acts as a learned bias; the policy masks illegal moves with -inf before the log-softmax over all from-to pairs (at least one legal move per board) and zeroes them after."),
    )
