from lib import *

NAME = "v08_perceiver_ar"

def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("o = F.scaled_dot_product_attention(q, k, v)", "o = F.scaled_dot_product_attention(q, k, v, is_causal=True)")],
        checks={
            "causal": (perturb(0, after(0, 10), 0, 48), upto(2)),
            "batch": (perturb(0, sample(0, 1), 0, 48), samp(0)),
        },
        note="latent i sits at position 8 + i; the latent self-attention is unmasked, so latent 2 reads latents 3..5, which saw inputs up to 13",
        label=dict(expected=["causal-leak"], line_sub="o = F.scaled_dot_product_attention(q, k, v)",
                   why="In Perceiver AR each latent stands for one of the last positions and predicts the next token; the cross-attention is correctly aligned to the lower right, but the latent self-attention stack must be causal as well. Without is_causal the earlier latents read the later ones, which have seen the tokens they are supposed to predict."),
    )
