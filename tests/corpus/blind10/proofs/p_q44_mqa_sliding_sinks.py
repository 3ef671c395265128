from lib import *

NAME = "q44_mqa_sliding_sinks"


def window_ref(mod):
    # single layer: output at i must not change when a token outside {sinks} U (i-window, i] changes
    torch.manual_seed(8)
    a = mod.MultiQueryAttention().eval()
    x = torch.randn(1, 12, 32)
    with torch.no_grad():
        y = a(x)
        x2 = x.clone(); x2[0, 4] += 5.0  # outside the window of query 11 (keys 8..11) and not a sink
        return maxdiff(y[0, 11], a(x2)[0, 11])


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7), 0, 64), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        ref=window_ref,
        note="one shared KV head broadcast over 4 query heads; mask = causal AND (within window 4 OR sink j<2); diagonal always visible",
        label=dict(expected=[], line_sub="return (j <= i) & ((i - j < window) | (j < n_sink))  # True = attend",
                   why="Keep-mask is causal (diagonal included) and limited to a 4-token window plus 2 attention-sink tokens; every row keeps its diagonal, so none is empty."),
    )
