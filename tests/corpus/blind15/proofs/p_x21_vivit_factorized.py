from lib import *

NAME = "x21_vivit_factorized"


def sdpa_ref(att, x):
    b, n, _ = x.shape
    q, k, v = att.to_qkv(x).chunk(3, dim=-1)
    q, k, v = (t.reshape(b, n, att.heads, -1).transpose(1, 2) for t in (q, k, v))
    o = F.scaled_dot_product_attention(q, k, v)
    return att.to_out(o.transpose(1, 2).reshape(b, n, -1))


def frame_ref(mod):
    """the spatial stage treats frames independently: frame 2's [CLS] does not move when frame 4 changes"""
    model, args, kw = build(mod)
    grab = {}
    h = model.space_transformer.register_forward_hook(lambda m, i, o: grab.__setitem__("o", o[:, 0]))
    run(model, args, kw)
    a = grab["o"].clone()
    v = args[0].clone()
    v[:, 4] = torch.randn_like(v[:, 4])
    run(model, (v,), kw)
    h.remove()
    b = grab["o"]
    keep = torch.ones(a.size(0), dtype=torch.bool)
    keep[4::6] = False
    return maxdiff(a[keep], b[keep])


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.space_transformer.layers[0][1], sdpa_ref),
                 module_ref(lambda m: m.temporal_transformer.layers[0][1], sdpa_ref), frame_ref),
        note="ref = attentions against SDPA, and the per-frame [CLS] of the spatial stage unchanged for untouched frames",
        label=dict(line_sub='out = rearrange(out, "b h n d -> b n (h d)")',
                   why="The heads are merged with 'b h n d -> b n (h d)', the inverse of the split; the spatial transformer runs on (b t) n d so frames never see each other, the per-frame [CLS] is regrouped with '(b t) d -> b t d' using the same b, and the temporal transformer then attends across frames. The pos_embedding (1, frames, n+1, d) is sliced on both the frame and token axes."),
    )
