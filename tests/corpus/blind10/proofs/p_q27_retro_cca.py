from lib import *

NAME = "q27_retro_cca"


def ref(mod):
    # reference: SDPA with the neighbour mask as a boolean keep-mask
    torch.manual_seed(4)
    a = mod.CCA().eval()
    B, C, S = 2, 2, 8
    x = torch.randn(B, 8, 32)
    nbr = torch.randn(B, C, S, 32)
    m = torch.rand(B, C, S) < 0.6
    m[..., 0] = True
    with torch.no_grad():
        o = a(x, nbr, m.float())
        q = a.wq(x).view(B, C, 4, 2, 16).permute(0, 1, 3, 2, 4)
        k = a.wk(nbr).view(B, C, S, 2, 16).permute(0, 1, 3, 2, 4)
        v = a.wv(nbr).view(B, C, S, 2, 16).permute(0, 1, 3, 2, 4)
        r = F.scaled_dot_product_attention(q, k, v, attn_mask=m[:, :, None, None, :])
        r = a.wo(r.permute(0, 1, 3, 2, 4).reshape(B, 8, 32))
    return maxdiff(o, r)


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("        probs = logits.softmax(dim=-1)\n        probs = probs * nbr_mask[:, :, None, None, :]\n",
              "        logits = logits.masked_fill(nbr_mask[:, :, None, None, :] == 0, float('-inf'))\n        probs = logits.softmax(dim=-1)\n")],
        checks={
            "padding": (perturb(1, where_eq(2, False), 1, 50), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 50), samp(0)),
        },
        ref=ref,
        note="neighbour padding zeroed after the softmax: visible weights sum to < 1, and padded neighbour tokens still enter the denominator (padding leak too); ref = SDPA with the mask",
        label=dict(expected=["mask-after-softmax"], line_sub="probs = probs * nbr_mask[:, :, None, None, :]",
                   also_subs=["probs = logits.softmax(dim=-1)"],
                   consequence_codes=["padding-leak"],
                   why="The neighbour mask multiplies the probabilities after the softmax without renormalizing, so each row's weights sum to less than 1 and depend on the padded neighbour tokens' scores."),
    )
