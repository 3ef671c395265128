from lib import *

NAME = "w12_dual_encoder_normdim"

pick = lambda o: torch.cat([o["image_embeds"], o["text_embeds"]], dim=-1)
pads = lambda a, k: torch.arange(a[1].size(1))[None, :] >= a[2][:, None]


def unit_ref(mod):
    model, args, kw = build(mod)
    o = run(model, args, kw, lambda o: o["image_embeds"])
    return (o.norm(dim=-1) - 1).abs().max().item()


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("image_embeds = image_embeds / image_embeds.norm(dim=0, keepdim=True)",
              "image_embeds = image_embeds / image_embeds.norm(dim=-1, keepdim=True)")],
        checks={
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 1, 100)), samp(0)),
            "padding": (perturb(1, pads, 1, 100), whole()),
        },
        pick=pick,
        ref=unit_ref,
        note="ref = largest deviation of an image embedding's norm from 1",
        label=dict(expected=["batch-leak"], also_ok_codes=["layernorm-axis"],
                   line_sub="image_embeds = image_embeds / image_embeds.norm(dim=0, keepdim=True)",
                   also_subs=[], consequence_codes=[],
                   why="CLIP L2-normalizes each embedding over its feature axis. The image embeddings are divided by their norm over dim=0, the batch axis: each image's embedding (and its similarity scores) now depends on the other images in the batch, and the embeddings are not unit vectors."),
    )
