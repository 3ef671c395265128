from lib import *

NAME = "g11_speech_text_emotion_fusion"
FIX = [("out = (attn @ v).transpose(2, 3).reshape(B, Tq, D)", "out = (attn @ v).transpose(1, 2).reshape(B, Tq, D)")]


def xattn_ref(sub, x, ctx, ctx_mask):
    B, Tq, D = x.shape
    sp = lambda t: t.view(B, -1, sub.heads, sub.dh).transpose(1, 2)
    o = F.scaled_dot_product_attention(sp(sub.q(x)), sp(sub.k(ctx)), sp(sub.v(ctx)), attn_mask=ctx_mask[:, None, None, :])
    return sub.norm(x + sub.o(o.transpose(1, 2).reshape(B, Tq, D)))


def pad_frames(a, k):
    return torch.arange(a[2].size(1))[None] >= a[3][:, None]


def result():
    return prove(
        NAME, "buggy", harm="axis", fix=FIX,
        checks={
            "padding": (chain(perturb(0, where_eq(1, 0), 1, 500), perturb(2, pad_frames)), whole()),
            "batch": (chain(perturb(0, sample(0, 1), 1, 500), perturb(2, sample(2, 1))), lambda o, a, k: o[[0, 2]]),
        },
        ref=refs(module_ref(lambda m: m.text_to_audio, xattn_ref), module_ref(lambda m: m.audio_to_text, xattn_ref)),
        note="ref = SDPA multi-head cross-attention with the standard head merge",
        label=dict(expected=["head-merge"], line_sub="out = (attn @ v).transpose(2, 3).reshape(B, Tq, D)",
                   also_subs=[], also_ok_codes=[], consequence_codes=["padding-leak"],
                   why="attn @ v is (B, H, Tq, dh); transpose(2, 3) gives (B, H, dh, Tq), and reshaping that to (B, Tq, D) mixes heads, head features and query positions, so each output row is built from other positions' attention outputs (including padded transcript tokens / frames). The merge needs transpose(1, 2) to (B, Tq, H, dh) before the reshape."),
    )
