from lib import *

NAME = "t25_whisper_cache"


def one_pass(mod):
    model, args, kw = build(mod)
    mel, tokens, _ = args
    return maxdiff(run(model, args, kw), run(model, (mel, tokens, tokens.size(1)), {}))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, 5), 0, 50), upto(5)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 0, 50)), samp(0)),
        },
        ref=one_pass,
        note="cached decoding: bottom-right aligned causal mask tril(Tk - Tq); cross-attention keys cached once",
        label=dict(expected=[], line_sub="mask = torch.ones(Tq, Tk, dtype=torch.bool).tril(diagonal=Tk - Tq)",
                   why="With a cache the decoder queries are the last Tq of Tk positions, so the causal mask is shifted by Tk - Tq; cross-attention over the encoder output is cached once; cached decoding equals one full pass."),
    )
