from lib import *

NAME = "t06_siglip_table"


def per_sample(mod):
    model, args, kw = build(mod)
    px, ids, am = args
    table = run(model, args, kw)
    with torch.no_grad():
        img = torch.cat([model.encode_image(px[i:i + 1]) for i in range(3)])
        txt = torch.cat([model.encode_text(ids[i:i + 1, : int(am[i].sum())], am[i:i + 1, : int(am[i].sum())]) for i in range(3)])
        ref = img @ txt.t() * model.logit_scale.exp() + model.logit_bias
    return maxdiff(table, ref)


def result():
    return prove(
        NAME, "correct",
        checks={"padding": (perturb(1, where_eq(2, 0), 1, 60), whole())},
        ref=per_sample,
        note="the B x B similarity table couples samples by design; each embedding is per-sample and ignores padding",
        label=dict(expected=[], line_sub="return img @ txt.t() * self.logit_scale.exp() + self.logit_bias",
                   why="A contrastive similarity table compares every image with every caption by definition; each row/column equals the embeddings computed one sample at a time with padding cut off, and the text pools the last real token of right-padded captions."),
    )
