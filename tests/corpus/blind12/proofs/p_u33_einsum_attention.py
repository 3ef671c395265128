from lib import *

NAME = "u33_einsum_attention"


def sdpa_reference(mod):
    """the attention module against torch's scaled_dot_product_attention with the same weights"""
    model, args, kw = build(mod)
    attn = model.blocks[0].attn
    torch.manual_seed(0)
    x = torch.randn(2, 12, 32)
    mask = torch.arange(12)[None] < torch.tensor([12, 7])[:, None]
    b, n, d = x.shape
    q, k, v = attn.to_qkv(x).view(b, n, 3, attn.heads, d // attn.heads).permute(2, 0, 3, 1, 4)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :])
    ref = attn.to_out(y.permute(0, 2, 1, 3).reshape(b, n, d))
    with torch.no_grad():
        return maxdiff(attn(x, mask)[mask], ref[mask])


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[('scores = torch.einsum("bhid,bhjd->bhji", q, k) * self.scale',
              'scores = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale')],
        checks={
            "padding": (perturb(0, lambda a, k: ~get(a, k, 1), 1, 100), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 100), samp(0)),
        },
        ref=sdpa_reference,
        note="the score table comes out as (key, query); the mask, the softmax over the last axis and the weighted sum then treat queries as keys",
        label=dict(expected=["softmax-axis"], line_sub='scores = torch.einsum("bhid,bhjd->bhji", q, k) * self.scale',
                   also_ok_codes=["mask-axis"],
                   why="The einsum output subscripts put the key index before the query index, so the table is transposed: the softmax over the last axis normalises over queries, the padding mask hides padded queries rather than keys, and output row j is built from key j with the other tokens' queries and values. Padding happens not to leak, but the result is not attention."),
    )
