from lib import *

NAME = "u23_streaming_chunks"
pads = lambda a, k: torch.arange(get(a, k, 0).size(1))[None] >= get(a, k, 1)[:, None]
real_frames = lambda o, a, k: o[~pads(a, k)]


def chunk_by_chunk(mod):
    """streaming: the first two chunks (frames 0..7) computed alone equal the full pass"""
    model, args, kw = build(mod)
    feats, lengths = args
    full = run(model, args, kw)
    part = run(model, (feats[:1, :8], torch.tensor([8])), {})
    return maxdiff(full[:1, :8], part)


def result():
    return prove(
        NAME, "correct",
        checks={
            # t = 7 closes chunk 1: nothing after it may change frames 0..7
            "causal": (perturb(0, after(0, 7)), upto(7)),
            "padding": (perturb(0, pads), real_frames),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=chunk_by_chunk,
        label=dict(expected=[], line_sub="attn = torch.softmax(scores, dim=-1).masked_fill(blocked, 0.0)",
                   why="Within a chunk attention is bidirectional on purpose (bounded lookahead to the chunk end); no frame sees a later chunk, which is what streaming needs. The masked_fill after the softmax repeats a mask already applied with -inf before it, so visible weights still sum to 1; it only turns the NaN rows of padded frames with no visible key into zeros, which no real frame reads."),
    )
