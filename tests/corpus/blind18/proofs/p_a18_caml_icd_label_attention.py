from lib import *

NAME = "a18_caml_icd_label_attention"


def caml_ref(mod):
    model, args, kw = build(mod)
    text = args[0]
    with torch.no_grad():
        H = torch.tanh(model.conv(model.embed(text).transpose(1, 2))).transpose(1, 2)
        s = torch.einsum("ld,btd->blt", model.U.weight, H)
        a = s.softmax(-1)
        m = torch.einsum("blt,btd->bld", a, H)
        y = (m * model.final.weight).sum(-1) + model.final.bias
        return maxdiff(run(model, args, kw), y)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("H.transpose(1, 2)), dim=1)", "H.transpose(1, 2)), dim=2)")],
        checks={"batch": (perturb(0, sample(0, 1), 1, 500), samp(0))},
        ref=caml_ref,
        label=dict(expected=["softmax-axis"], line_sub="alpha = F.softmax(self.U.weight.matmul(H.transpose(1, 2)), dim=1)",
                   why="The score table is (B, codes, T) and alpha is then multiplied against H over T, but the softmax normalizes over dim=1, the code axis: codes compete for each position instead of each code getting a distribution over the note."),
    )
