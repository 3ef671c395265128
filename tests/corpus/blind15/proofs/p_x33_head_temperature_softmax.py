from lib import *

NAME = "x33_head_temperature_softmax"


def attn_ref(att, x):
    B, T, D = x.shape
    q = att.wq(x).view(B, T, att.h, att.dh).transpose(1, 2)
    k = att.wk(x).view(B, T, att.h, att.dh).transpose(1, 2)
    v = att.wv(x).view(B, T, att.h, att.dh).transpose(1, 2)
    o = F.scaled_dot_product_attention(q * att.log_temp.exp(), k, v, is_causal=True)
    return att.wo(o.transpose(1, 2).reshape(B, T, D))


def rel_ref(mod):
    """relative error of the first layer's attention (outputs of size ~1e2) against SDPA"""
    r = module_ref(lambda m: m.layers[0].attn, attn_ref)(mod)
    return r / 100.0


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 11)), upto(11)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(rel_ref, module_ref(lambda m: m.layers[1].attn, attn_ref)),
        note="ref = attentions against SDPA (is_causal, temperature folded into q); the first layer's difference is divided by 100 (its outputs are in the hundreds)",
        label=dict(line_sub="weights = torch.exp(scores - scores.amax(dim=-1, keepdim=True))",
                   why="The hand-written softmax subtracts the row maximum before exp, so the very large logits produced by the raw kW inputs (the first layer runs before any LayerNorm) stay finite; the masked future keys are -inf and become exactly 0; the learned per-head temperature exp(log_temp) multiplies the 1/sqrt(d_head)-scaled scores, a learned sharpening by design."),
    )
