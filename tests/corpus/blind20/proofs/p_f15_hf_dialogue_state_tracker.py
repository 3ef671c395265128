from lib import *

NAME = "f15_hf_dialogue_state_tracker"


def pick(o):
    return torch.cat([o[0], o[1]], dim=-1)


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attn_mask=pad[:, None, None, :])", "attn_mask=~pad[:, None, None, :])")],
        checks={
            # only the content of the pad slots changes: the pad id's embedding row
            "padding": (keep, whole(), pad_row(lambda m: m.encoder.embeddings.word_embeddings, 0)),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[0] > 4), 5, 300), samp(0)),
        },
        pick=pick,
        ref=refs(solo_cut(1, {0: 16, 1: 16}, pick=pick), solo_cut(0, {0: 22, 1: 22}, pick=pick)),
        note="ref = dialogues 0 and 1 tracked alone without padding vs in the padded batch",
        label=dict(expected=["mask-polarity"], line_sub="attn_mask=pad[:, None, None, :])",
                   also_subs=["pad = input_ids.eq(self.pad_id)"], also_ok_codes=[], consequence_codes=["padding-leak"],
                   why="pad is True at padding, but a boolean attn_mask for scaled_dot_product_attention means True = may attend. The slot queries therefore read only the pad positions and ignore the dialogue, so the predicted slot values depend on the padding alone."),
    )
