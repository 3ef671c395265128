from lib import *

NAME = "u48_hf_gemma2"
# output column t scores token t + 1 from the prefix 0..t
real_cols = lambda o, a, k: o[get(a, k, 1)[:, 1:] == 1]


def alone(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        ids, mask = args
        full = run(model, args, kw)
        one = run(model, (ids[i:i + 1, :n], mask[i:i + 1, :n]), {})
        return maxdiff(full[i:i + 1, : n - 1], one)
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real_cols),
            # column c scores token c + 1 given tokens <= c: tokens after 6 cannot reach columns 0..5
            "causal": (perturb(0, after(0, 6), 3, 64), lambda o, a, k: o[:, :6]),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(alone(1, 9), alone(2, 5)),
        label=dict(expected=[], line_sub="logits = self.lm(input_ids=input_ids, attention_mask=attention_mask).logits",
                   why="Right-padded inputs with their 0/1 mask passed to Gemma-2 as the library expects (positions need no offset for right padding). The query scale 1/sqrt(query_pre_attn_scalar) = 1/sqrt(24) with head_dim 16, the attention soft-capping and the 4-token sliding window on alternate layers are the model's design. Each text's log-likelihoods equal the text alone."),
    )
