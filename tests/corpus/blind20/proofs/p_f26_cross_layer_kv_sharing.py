from lib import *

NAME = "f26_cross_layer_kv_sharing"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("k, v = (t.reshape(B, self.kv_heads, T, self.dh) for t in kv)",
              "k, v = (t.transpose(1, 2) for t in kv)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 256), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 256), samp(0)),
        },
        label=dict(expected=["head-split"], line_sub="k, v = (t.reshape(B, self.kv_heads, T, self.dh) for t in kv)",
                   also_subs=[], also_ok_codes=[], consequence_codes=["causal-leak"],
                   why="The shared K/V are stored as (B, T, H_kv, d) but are reshaped to (B, H_kv, T, d) instead of transposed, so the 'time' axis of a head walks over consecutive (token, head) pairs. Key slot s of head 1 holds a token from the second half of the sequence, so early queries attend to future tokens under is_causal and the heads mix positions."),
    )
