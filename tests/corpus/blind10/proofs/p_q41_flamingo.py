from lib import *

NAME = "q41_flamingo"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("        attn = sim.softmax(dim=-1)\n",
              "        attn = sim.softmax(dim=-1)\n        attn = attn.masked_fill(rearrange(text_time == 0, \"b i -> b 1 i 1\"), 0.0)\n")],
        checks={
            # text before the first <image> of sample 0 (positions 0..2) must not depend on any image
            "causal": (perturb(1, lambda a, k: torch.ones(a[1].shape[:2], dtype=torch.bool)), lambda o, a, k: o[0, :3]),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[0] != 3), 4, 50), samp(0)),
        },
        note="tokens before the first image match no media: the fully masked row softmaxes to uniform over all images (including later ones)",
        label=dict(expected=["fully-masked-row"], line_sub="attn = sim.softmax(dim=-1)",
                   also_subs=["sim = sim.masked_fill(~attend, -torch.finfo(sim.dtype).max)",
                              "text_time = media_locations.cumsum(dim=-1)  # image index each token belongs to (0 = none yet)"],
                   consequence_codes=["causal-leak"],
                   why="Text tokens preceding the first <image> have text_time 0 and no visible media; their row is fully masked and becomes uniform over all image latents (including images later in the text) because the no-media rows are not zeroed."),
    )
