from lib import *

NAME = "t15_rope_decode_offset"


def one_pass(mod):
    """generation with a cache must give the logits of a single pass over the whole sequence"""
    model, args, kw = build(mod)
    ids = args[0]
    return maxdiff(run(model, args, kw), run(model, (ids, ids.size(1)), {}))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("position_ids = torch.arange(T)", "position_ids = torch.arange(past, past + T)")],
        checks={
            "causal": (perturb(0, after(0, 8), 0, 50), upto(8)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=one_pass,
        note="every decoded token is rotated as position 0: cached keys sit at 0..past-1, so the relative offsets are wrong",
        label=dict(expected=["positional-axis"], line_sub="position_ids = torch.arange(T)",
                   also_subs=["cos, sin = rope_cos_sin(position_ids, self.hd)"],
                   why="Rotary positions are not offset by the cache length: during decoding each new query/key is rotated as position 0, so the positions no longer follow the sequence axis of the cached keys and the decoded logits differ from a single pass."),
    )
