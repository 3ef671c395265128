from lib import *

NAME = "v27_lower_right_prefill"

def one_pass(mod):
    model, args, kw = build(mod)
    chunked = run(model, args, kw)
    model.chunk = 10 ** 6
    full = run(model, args, kw)
    return maxdiff(chunked, full)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 64), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        ref=one_pass,
        note="ref = the same model prefilling the whole prompt in one chunk (Tq == Tk, plain causal)",
        label=dict(line_sub="attn_mask=causal_lower_right(Tq, end))",
                   why="The chunk's queries are the last Tq of the `end` cached positions, so the causal mask must be aligned to the lower-right corner: query i (absolute start + i) sees keys 0..start + i. causal_lower_right does exactly that (is_causal=True would align upper-left); chunked prefill equals one full causal pass."),
    )
