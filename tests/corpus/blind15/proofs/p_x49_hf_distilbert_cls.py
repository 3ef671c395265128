from lib import *

NAME = "x49_hf_distilbert_cls"


def alone(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        one = run(model, (), {k: v[i:i + 1, :n] for k, v in kw.items()})
        return maxdiff(full[i:i + 1], one)
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb("input_ids", lambda a, k: k["attention_mask"] == 0, 1, 100), whole()),
            "batch": (perturb("input_ids", both(sample("input_ids", 1), lambda a, k: k["attention_mask"] == 1), 1, 100), samp(0)),
        },
        ref=refs(alone(1, 9), alone(2, 6)),
        note="ref = each utterance cut to its tokens and classified alone",
        label=dict(line_sub="return self.model(input_ids=input_ids, attention_mask=attention_mask).logits.softmax(dim=-1)",
                   why="The batch comes from a tokenizer-style helper whose attention_mask is the library's convention (1 = attend); DistilBERT turns it into the additive key mask itself and classifies from the [CLS] position; the softmax over the intent axis (dim=-1) is the classifier's output distribution, not an attention."),
    )
