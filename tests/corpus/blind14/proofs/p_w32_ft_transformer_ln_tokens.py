from lib import *

NAME = "w32_ft_transformer_ln_tokens"


def token_stats(mod):
    """the attention normalization of block 1 must standardize each token over its features"""
    model, args, kw = build(mod)
    seen = []
    norm = model.blocks[1].attention_normalization
    h = norm.register_forward_hook(lambda m, i, o: seen.append((i[0].detach(), o.detach())))
    run(model, args, kw)
    h.remove()
    x, o = seen[0]  # weights are ones and biases zeros at init, so o is the standardized input
    return maxdiff(o, F.layer_norm(x, (x.size(-1),), eps=1e-5))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("nn.LayerNorm([n_tokens, d_token])", "nn.LayerNorm(d_token)")],
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 0, 3)), samp(0))},
        ref=token_stats,
        note="ref = block 1's attention normalization against a per-token layer norm over the features (affine is identity at init)",
        label=dict(expected=["layernorm-axis"], also_ok_codes=[], line_sub="nn.LayerNorm([n_tokens, d_token])",
                   also_subs=["h = self.attention_normalization(x)"], consequence_codes=[],
                   why="FT-Transformer normalizes each feature token over its d_token channels. normalized_shape [n_tokens, d_token] takes the statistics over all tokens of a row at once, so one token's normalization depends on every other feature's value and tokens keep unequal scales (the affine weights are also per token)."),
    )
