from lib import *

NAME = "u01_linformer_padding"


def result():
    pads = lambda a, k: get(a, k, 1) == 0
    tokens = lambda o: o[0]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("values = self.to_v(x)\n", "values = self.to_v(x) * keep\n")],
        checks={
            "padding": (perturb(0, pads, 1, 50), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 50), samp(0)),
        },
        pick=tokens,
        note="keys are zeroed at padding before the sequence projection, values are not: F mixes padded values into every compressed row",
        label=dict(expected=["padding-leak"], line_sub="values = self.to_v(x)\n",
                   also_subs=['values = torch.einsum("bnd,nk->bkd", values, self.proj_v[:n])'],
                   why="Linformer's F projects the value sequence axis, mixing every position into every compressed row; keys are zeroed at padding but values are not, so the features of real tokens depend on the pad embeddings (whose position embeddings and later-layer states are not zero)."),
    )
