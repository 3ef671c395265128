from lib import *

NAME = "g12_lyrics_alignment"
FIX = [("align = scores.softmax(dim=1)", "align = scores.softmax(dim=-1)")]


def lmask(key_len, key_x):
    return lambda a, k: torch.arange(a[key_x].size(1))[None] < a[key_len][:, None]


def att_ref(sub, frames, phonemes, ph_mask):
    q, k, v = sub.q(frames), sub.k(phonemes), sub.v(phonemes)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=ph_mask[:, None, :])


def pad_content(args, kw):
    args, kw = perturb(2, lambda a, k: ~lmask(3, 2)(a, k), 1, 43)(args, kw)
    return perturb(0, lambda a, k: ~lmask(1, 0)(a, k))(args, kw)


def result():
    return prove(
        NAME, "buggy", harm="axis", fix=FIX,
        checks={
            "padding": (pad_content, lambda o, a, k: o[lmask(1, 0)(a, k)]),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 1, 43)), lambda o, a, k: o[[0, 2]]),
        },
        ref=module_ref(lambda m: m.attend, att_ref),
        note="ref = frame-to-phoneme attention recomputed with SDPA (normalised over the phonemes, padded phonemes masked)",
        label=dict(expected=["softmax-axis"], line_sub="align = scores.softmax(dim=1)",
                   also_subs=[], also_ok_codes=[], consequence_codes=["padding-leak"],
                   why="The score table is (B, frames, phonemes) and the weights are multiplied into the phoneme values, so each frame's weights must be normalised over the phoneme axis; softmax(dim=1) normalises every phoneme column over the frames instead. Padded phoneme columns then get weight 1/T_frames in every frame and padded frames enter the denominators, so real frames see padding."),
    )
