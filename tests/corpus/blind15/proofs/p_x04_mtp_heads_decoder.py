from lib import *

NAME = "x04_mtp_heads_decoder"


def attn_ref(layer, x, mask):
    """the same layer with a boolean causal mask (True = masked above the diagonal)"""
    T = x.size(1)
    ok = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    return layer.__class__.forward(layer, x, ok)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 80), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 80), samp(0)),
        },
        ref=module_ref(lambda m: m.trunk[0], attn_ref),
        note="ref = the first trunk layer against the same layer with the boolean strictly-upper causal mask",
        label=dict(line_sub="causal_mask = nn.Transformer.generate_square_subsequent_mask(T, device=tokens.device)",
                   why="generate_square_subsequent_mask is an additive float mask: -inf strictly above the diagonal and 0 on and below it, so each query sees itself and the past; the bias key/value add one always-visible slot (MHA pads the mask with a 0 column). Each future-offset head reads the trunk causally."),
    )
