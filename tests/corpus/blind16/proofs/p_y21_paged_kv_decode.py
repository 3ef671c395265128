from lib import *

NAME = "y21_paged_kv_decode"


def owned(args, kw):
    """(num_pages, page) True where a slot holds a live token of some sequence"""
    kp, bt, cl = args[1], args[3], args[4]
    live = torch.zeros(kp.shape[:2], dtype=torch.bool)
    for b in range(bt.size(0)):
        for pos in range(int(cl[b])):
            live[bt[b, pos // kp.size(1)], pos % kp.size(1)] = True
    return live


def of_seq(i):
    def w(args, kw):
        kp, bt, cl = args[1], args[3], args[4]
        m = torch.zeros(kp.shape[:2], dtype=torch.bool)
        for pos in range(int(cl[i])):
            m[bt[i, pos // kp.size(1)], pos % kp.size(1)] = True
        return m
    return w


def contiguous(mod):
    model, args, kw = build(mod)
    out = run(model, args, kw)
    x, kp, vp, bt, cl = args
    m = model.attn
    worst = 0.0
    with torch.no_grad():
        for i in range(x.size(0)):
            n = int(cl[i])
            ks = kp[bt[i]].reshape(-1, m.h, m.dh)[:n]
            vs = vp[bt[i]].reshape(-1, m.h, m.dh)[:n]
            h = model.ln1(x[i:i + 1])
            q, kn, vn = m.qkv(h).view(1, 3, m.h, m.dh).unbind(1)
            K = torch.cat([ks, kn], 0).transpose(0, 1)
            V = torch.cat([vs, vn], 0).transpose(0, 1)
            o = F.scaled_dot_product_attention(q.view(m.h, 1, m.dh), K, V).reshape(1, -1)
            y = x[i:i + 1] + m.o(o)
            y = y + model.mlp(model.ln2(y))
            worst = max(worst, maxdiff(out[i:i + 1], y))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={"padding": (chain(perturb(1, lambda a, k: ~owned(a, k)), perturb(2, lambda a, k: ~owned(a, k))), whole()),
                "batch": (chain(perturb(0, sample(0, 0)), perturb(1, of_seq(0)), perturb(2, of_seq(0))), samp(1))},
        ref=contiguous,
        note="ref: each sequence's context laid out contiguously and attended with SDPA",
        label=dict(line_sub="valid = (slot[None, :] < context_lens[:, None]) | (slot[None, :] == L)",
                   why="Unused block-table entries point at page 0, which holds another sequence's tokens, and page tails hold garbage; the length mask (plus the always-visible new token) removes exactly those slots before the softmax, so each sequence only reads its own context."),
    )
