from lib import *

NAME = "x31_coca_captioner"

V, T, E = 50, 10, 24
pick = lambda o: torch.cat([o[0].flatten(1), o[1], o[2]], dim=1)


def upto_pos(t):
    """caption logits at positions <= t (the text embedding reads the whole text by design)"""
    return lambda o, a, k: o[:, : (t + 1) * V]


def real_parts(o, a, k):
    m = a[2]
    logits = o[:, : T * V].view(-1, T, V)[m]
    return torch.cat([logits.flatten(), o[:, T * V:].flatten()])


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, both(after(1, 3), lambda a, k: a[2]), 1, 50), upto_pos(3)),
            "padding": (perturb(1, lambda a, k: ~a[2], 1, 50), real_parts),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, both(sample(1, 1), lambda a, k: a[2]), 1, 50)), samp(0)),
        },
        pick=pick,
        ref=solo_cut(1, {1: 6, 2: 6}, pick=lambda o: o[1]),
        note="causal = caption logits up to position 3 ignore tokens 4..; ref = each caption's text embedding computed alone without padding",
        label=dict(line_sub="attn = F.dropout(attn, p=self.dropout, training=self.training)",
                   why="The pooler's attention dropout follows the module's mode (off in eval). Text rows are causal (tril, True = visible, inverted to MHA's True = blocked and repeated per head); only the [CLS] row appended after the text reads all real tokens (and itself) but no padding. The multimodal layers reuse the causal text block and cross-attend to the caption queries without a mask, since the queries are never padding."),
    )
