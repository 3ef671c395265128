from lib import *

NAME = "u47_hf_xlmr"


def more_padding(mod):
    """the same sentences padded to 16 instead of 12 must give the same embeddings"""
    model, args, kw = build(mod)
    ids = args[0]
    longer = torch.cat([ids, torch.ones(ids.size(0), 4, dtype=ids.dtype)], dim=1)
    return maxdiff(run(model, args, kw), run(model, (longer,), {}))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("attention_mask = (input_ids != 0).long()", "attention_mask = (input_ids != 1).long()")],
        checks={"batch": (perturb(0, both(sample(0, 1), lambda a, k: get(a, k, 0) > 2), 3, 64), samp(0))},
        ref=refs(more_padding, solo(1, n=8, pooled=True), solo(2, n=5, pooled=True)),
        note="XLM-R pads with id 1; id 0 is <s>. The mask hides <s> and keeps every pad token",
        label=dict(expected=["padding-leak"], line_sub="attention_mask = (input_ids != 0).long()",
                   also_ok_codes=["mask-polarity"],
                   why="The mask is built for a BERT-style pad id 0, but XLM-R pads with 1 and uses 0 for <s>: the pad tokens are attended to by every token and the <s> token is hidden as a key, so the embedding depends on how much padding the batch has (it changes when the batch is padded further) and differs from the sentence alone."),
    )
