from lib import *

NAME = "g07_ctc_compressed_speech_translation"


def frame_pad(a, k):
    return torch.arange(a[0].size(1))[None] >= a[1][:, None]


def compress_ref(mod):
    """loop reference: group consecutive equal CTC argmax labels among the real frames of each utterance"""
    torch.manual_seed(1)
    B, T, D = 3, 16, 8
    h = torch.randn(B, T, D)
    logits = torch.randn(B, T, 3)
    lengths = torch.tensor([16, 11, 5])
    out, mask = mod.ctc_compress(h, logits, lengths)
    worst = 0.0
    for b in range(B):
        pred = logits[b, : lengths[b]].argmax(-1).tolist()
        segs, start = [], 0
        for t in range(1, len(pred) + 1):
            if t == len(pred) or pred[t] != pred[t - 1]:
                segs.append(h[b, start:t].mean(0))
                start = t
        ref = torch.stack(segs)
        if int(mask[b].sum()) != len(segs):
            return float("inf")
        worst = max(worst, maxdiff(out[b, : len(segs)], ref))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, frame_pad), lambda o, a, k: o[a[2] != 0]),
            "causal": (perturb(2, after(2, 4), 1, 64), upto(4)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 1, 64)), lambda o, a, k: o[[0, 2]]),
        },
        ref=compress_ref,
        note="padding = padded speech frames changed (this can change the compressed length S); ref = loop implementation of CTC compression",
        label=dict(line_sub="seg_id = seg_id.masked_fill(~valid, T)",
                   why="Segment ids are a per-utterance cumsum over time, padded frames are scattered into a spare slot T that is never read, and the compressed memory gets its own length mask for the decoder; the decoder uses a proper causal mask plus key padding, so translation logits depend only on the utterance's real frames and earlier target tokens."),
    )
