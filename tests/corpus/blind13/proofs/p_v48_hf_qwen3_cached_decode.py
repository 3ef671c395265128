from lib import *

NAME = "v48_hf_qwen3_cached_decode"

def full_pass(mod):
    model, args, kw = build(mod)
    ids, mask = args
    stepped = run(model, args, kw)
    pos = (mask.cumsum(-1) - 1).clamp(min=0)
    with torch.no_grad():
        full = model.lm(input_ids=ids, attention_mask=mask, position_ids=pos).logits
    real = mask.bool()
    return maxdiff(stepped[real], full[real])


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "causal": (perturb(0, after(0, 5), 3, 64), upto_real(5, 1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(full_pass, solo(0, n=6, left=True)),
        note="ref = one uncached forward over the whole sequence; and the left-padded prompt alone",
        label=dict(line_sub="position_ids=positions[:, t:t + 1], past_key_values=out.past_key_values,",
                   why="Each decode step passes the mask extended to the cached length and continues each sample's own position counter; the DynamicCache holds the prefill keys. Stepped decoding equals the uncached forward at every real position."),
    )
