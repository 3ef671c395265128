from lib import *

NAME = "x40_electra_shared_emb_scale"

realt = lambda o, a, k: o[a[1] == 1]


def sdpa_ref(att, x, ext):
    B, T, D = x.shape
    q, k, v = (att.split(f(x)) for f in (att.query, att.key, att.value))
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=ext)  # default scale 1/sqrt(head_size)
    return att.dense(o.permute(0, 2, 1, 3).reshape(B, T, D))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.hidden_size)",
              "scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)")],
        checks={
            "padding": (perturb(0, lambda a, k: a[1] == 0, 5, 100), realt),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: (a[1] == 1) & ~a[2]), 5, 100), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.discriminator[0].attention, sdpa_ref), module_ref(lambda m: m.generator[0].attention, sdpa_ref)),
        note="ref = the discriminator's and generator's first attention against SDPA with the default 1/sqrt(head_size) scale",
        label=dict(expected=["scale-factor"], also_ok_codes=[],
                   line_sub="scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.hidden_size)", also_subs=[], consequence_codes=[],
                   why="The scores of each head are q.k over head_size = 8 (discriminator) or 16 (generator) features, so the softmax temperature must be 1/sqrt(head_size). Dividing by sqrt(hidden_size) = sqrt(32) flattens the discriminator's attention by a further factor of 2 (sqrt(2) in the generator) relative to the ELECTRA/BERT attention the weights were trained with."),
    )
