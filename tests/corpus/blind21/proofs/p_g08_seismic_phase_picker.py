from lib import *

NAME = "g08_seismic_phase_picker"


def norm_ref(sub, x):
    """independent: F.layer_norm over the channel axis of the (B, T, C) view"""
    y = F.layer_norm(x.transpose(1, 2), (x.size(1),), sub.weight, sub.bias, sub.eps)
    return y.transpose(1, 2)


def pos_ref(mod):
    """the term added between the stem and the encoder must be the sinusoid of the time index"""
    model, args, kw = build(mod)
    got = {}
    h1 = model.stem.register_forward_hook(lambda m, i, o: got.__setitem__("stem", o))
    h2 = model.encoder.register_forward_pre_hook(lambda m, i: got.__setitem__("enc", i[0]))
    run(model, args, kw)
    h1.remove(); h2.remove()
    added = got["enc"] - got["stem"].transpose(1, 2)          # (B, T, C)
    T, C = added.shape[1:]
    t = torch.arange(T, dtype=torch.float64)[:, None]
    i = torch.arange(C)[None, :]
    angle = t / (10000.0 ** ((i - i % 2).double() / C))
    table = torch.where(i % 2 == 0, torch.sin(angle), torch.cos(angle)).float()
    return maxdiff(added, table.expand_as(added))


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.stem.norm, norm_ref), module_ref(lambda m: m.head_norm, norm_ref), pos_ref),
        note="ref = ChannelNorm vs F.layer_norm over channels; added positional term vs sin/cos of the time index (T' == C == 32)",
        label=dict(line_sub="x = x + self.pe[: x.size(-1)].t()",
                   why="The stem output is channels-first (B, C, T') with C == T' == 32; the (T', C) sinusoid table is transposed to (C, T') so it varies along time, and ChannelNorm takes its statistics over dim 1, which is the channel axis in this layout; the final softmax over dim 1 is over the three phase classes, not an attention."),
    )
