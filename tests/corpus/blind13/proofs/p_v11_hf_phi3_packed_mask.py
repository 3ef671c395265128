from lib import *

NAME = "v11_hf_phi3_packed_mask"

def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("keep = attention_mask.bool()[:, None, None, :].expand(B, 1, T, T)",
              "keep = attention_mask.bool()[:, None, None, :] & torch.ones(T, T, dtype=torch.bool, device=input_ids.device).tril()")],
        checks={
            "causal": (perturb(0, after(0, 4), 3, 64), upto(4)),
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        note="transformers uses a 4-D mask as given; this one holds only the padding",
        label=dict(expected=["causal-leak"], line_sub="keep = attention_mask.bool()[:, None, None, :].expand(B, 1, T, T)",
                   why="When a 4-D mask is passed, transformers uses it as the complete attention pattern and does not add the causal part. The wrapper builds it from the padding alone, so every token of this causal LM attends to all later real tokens and the logits at position t depend on the future."),
    )
