from lib import *

NAME = "q09_tab_transformer"


def ref(mod):
    torch.manual_seed(2)
    a = mod.ColumnAttention(32).eval()
    x = torch.randn(2, 4, 32)
    with torch.no_grad():
        q, k, v = a.to_qkv(x).chunk(3, -1)
        sp = lambda t: t.view(2, 4, 4, 8).transpose(1, 2)
        o = F.scaled_dot_product_attention(sp(q), sp(k), sp(v)).transpose(1, 2).reshape(2, 4, 32)
        return maxdiff(a(x), a.to_out(o))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("sim = sim - sim.amax(dim=-2, keepdim=True)", "sim = sim - sim.amax(dim=-1, keepdim=True)"),
             ("attn = attn / attn.sum(dim=-2, keepdim=True)", "attn = attn / attn.sum(dim=-1, keepdim=True)")],
        checks={"batch": (perturb(1, sample(1, 1)), samp(0))},
        ref=ref,
        note="hand-written softmax normalizes over i (query axis); ref = SDPA",
        label=dict(expected=["softmax-axis"], line_sub="attn = attn / attn.sum(dim=-2, keepdim=True)",
                   also_subs=["sim = sim - sim.amax(dim=-2, keepdim=True)"],
                   why="The hand-written softmax over the column-attention scores [b,h,i,j] normalizes along dim=-2 (queries), so each query's weights over keys do not sum to one."),
    )
