from lib import *

NAME = "v36_streaming_llm"

T_LAST = 11


def evicted(a, k):
    t = torch.arange(a[0].size(1))
    return ((t >= 2) & (t <= T_LAST - 4))[None, :].expand(a[0].shape)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 64), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
            "window": (perturb(0, evicted, 0, 64), lambda o, a, k: o[:, T_LAST]),
        },
        note="window = tokens 2..7 are evicted when token 11 is decoded (2 sinks + window 4): its output must not depend on them",
        label=dict(line_sub="qr = rope(q, slots[-1:])",
                   why="StreamingLLM keeps the attention sinks and a rolling window by design, so a token's output depends only on the sinks and the last window tokens. Keys are cached unrotated and rotated by cache slot each step with the query at the last slot, as in the paper; the decoding is causal and per sample."),
    )
