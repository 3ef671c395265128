from lib import *

NAME = "w50_hf_bloom_leftpad"


def alone(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        one = run(model, (args[0][i:i + 1, -n:], args[1][i:i + 1, -n:]), {})
        return maxdiff(full[i:i + 1, -(n - 1):], one)
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 4, 64), whole()),
            "causal": (perturb(0, after(0, 6), 4, 64), upto(5)),
            "batch": (perturb(0, sample(0, 1), 4, 64), samp(0)),
        },
        ref=refs(alone(1, 8), alone(2, 5)),
        note="output position j scores token j+1, so it may depend on tokens <= j+1; ref = each sequence alone (its T-1 scores cut to n-1)",
        label=dict(line_sub="scored = attention_mask[:, 1:] * attention_mask[:, :-1]",
                   why="A token is scored only when it is real and predicted from a real position: the first real token of a left-padded row would otherwise be scored from the logits of a pad position. BLOOM builds its ALiBi positions from the attention mask, so left padding does not shift them; 1 = real is the library convention."),
    )
