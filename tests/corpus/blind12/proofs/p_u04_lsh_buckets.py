from lib import *

NAME = "u04_lsh_buckets"


def loop_reference(mod):
    """reference: for every token, its key set written out with python loops from the sort order"""
    model, args, kw = build(mod)
    attn = model.layers[0][1]
    torch.manual_seed(0)
    x = torch.randn(2, 16, 32)
    B, T, D = x.shape
    h, dh, c = attn.h, attn.dh, attn.chunk
    with torch.no_grad():
        got = attn(x)
        qk = attn.to_qk(x).view(B, T, h, dh).transpose(1, 2)
        v = attn.to_v(x).view(B, T, h, dh).transpose(1, 2)
        buckets = attn.hash(qk)
        out = torch.zeros(B, h, T, dh)
        n = T // c
        for b in range(B):
            for hh in range(h):
                order = sorted(range(T), key=lambda t: (int(buckets[b, hh, t]), t))
                for s, tok in enumerate(order):
                    ch = s // c
                    slots = list(range(ch * c, ch * c + c)) + list(range(((ch - 1) % n) * c, ((ch - 1) % n) * c + c))
                    keys = [order[j] for j in slots]
                    sc = torch.stack([qk[b, hh, tok] @ F.normalize(qk[b, hh, j], dim=-1) / math.sqrt(dh)
                                      if j != tok else torch.tensor(-1e5) for j in keys])
                    w = sc.softmax(-1)
                    out[b, hh, tok] = sum(w[i] * v[b, hh, j] for i, j in enumerate(keys))
        ref = attn.out(out.transpose(1, 2).reshape(B, T, D))
    return maxdiff(got, ref)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1), 0, 32), samp(0))},
        ref=loop_reference,
        label=dict(expected=[], line_sub="undo = torch.argsort(sticker, dim=-1)                # token -> sorted slot",
                   why="The argsort/gather over the time axis is per sample and head; the inverse permutation (argsort of the sort indices) scatters the outputs back. The self-mask uses -1e5 on purpose (a token may attend to itself only when alone), queries are unnormalized and keys normalized as in Reformer's shared-QK attention. It matches a loop reference built from the same sort order."),
    )
