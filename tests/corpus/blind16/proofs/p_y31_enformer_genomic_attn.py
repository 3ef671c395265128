from lib import *

NAME = "y31_enformer_genomic_attn"


def ref_attn(m, x):
    b, n, D = x.shape
    sp = lambda t: t.view(b, n, m.heads, m.dh).transpose(1, 2)
    q, k, v = sp(m.to_q(x)), sp(m.to_k(x)), sp(m.to_v(x))
    idx = torch.arange(n)
    d = (idx[None, :] - idx[:, None]).float()
    hl = torch.linspace(math.log2(3.0), math.log2(n), m.num_basis).exp2()
    f = torch.exp(-math.log(2.0) / hl * d.abs()[..., None])
    feats = torch.cat([f, torch.sign(d)[..., None] * f], -1)
    bias = m.rel_bias(feats).permute(2, 0, 1)
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    return m.to_out(o.transpose(1, 2).reshape(b, n, D))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("q = self.to_q(x).view(b, self.heads, n, self.dh)",
              "q = self.to_q(x).view(b, n, self.heads, self.dh).transpose(1, 2)")],
        checks={"batch": (perturb(0, sample(0, 0)), samp(1))},
        ref=module_ref(lambda m: m.attn[0], ref_attn),
        note="ref: first attention layer vs SDPA with the same relative bias",
        label=dict(expected=["head-split"], line_sub="q = self.to_q(x).view(b, self.heads, n, self.dh)",
                   why="The query projection is viewed as (b, heads, n, dh) straight from (b, n, dim), so each 'query row' of a head is a slice of features from a few consecutive positions; queries no longer correspond to their positions while keys and values are split correctly."),
    )
