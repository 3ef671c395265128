from lib import *

NAME = "v43_alibi_kv_cache"

def one_pass(mod):
    model, args, kw = build(mod)
    stepped = run(model, args, kw)
    model.prefill = 10 ** 6
    full = run(model, args, kw)
    return maxdiff(stepped, full)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 64), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        ref=one_pass,
        note="ref = the whole sequence in one pass, no decoding steps",
        label=dict(line_sub="alibi = self.slopes[:, None, None] * k_pos[None, None, :].float()           # (H, 1, Tk)",
                   why="BLOOM's ALiBi uses slope * key position only; a per-query constant does not change the softmax, so this equals slope * (k - q). Cached decoding builds the bias and the causal mask from absolute positions (queries at past..Tk-1), and equals the full pass."),
    )
