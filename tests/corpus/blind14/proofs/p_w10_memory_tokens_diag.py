from lib import *

NAME = "w10_memory_tokens_diag"


def hidden_diagonal(mod):
    """how many token positions cannot attend to themselves (entries of the mask's diagonal that are False)"""
    model, args, kw = build(mod)
    seen = []
    orig = F.scaled_dot_product_attention

    def spy(q, k, v, attn_mask=None, **kw2):
        seen.append(attn_mask.detach().clone())
        return orig(q, k, v, attn_mask=attn_mask, **kw2)

    torch.nn.functional.scaled_dot_product_attention = spy
    try:
        run(model, args, kw)
    finally:
        torch.nn.functional.scaled_dot_product_attention = orig
    m = seen[0]
    return float((~m.diagonal()).sum().item())


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("allowed = ~torch.triu(torch.ones(L, L, dtype=torch.bool, device=x.device))",
              "allowed = ~torch.triu(torch.ones(L, L, dtype=torch.bool, device=x.device), diagonal=1)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 64), upto(5)),
            "batch": (chain(perturb(0, sample(0, 1), 0, 64), perturb(1, sample(1, 1))), samp(0)),
        },
        ref=hidden_diagonal,
        note="ref = number of token positions whose own key is masked (0 when the diagonal is visible)",
        label=dict(expected=["causal-diagonal"], also_ok_codes=[],
                   line_sub="allowed = ~torch.triu(torch.ones(L, L, dtype=torch.bool, device=x.device))",
                   also_subs=["y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)"], consequence_codes=[],
                   why="The allowed-mask is built as the complement of triu(ones) with the default diagonal=0, which removes the diagonal: every segment token is blocked from attending to itself (it sees only earlier tokens and the memory slots, which keep the rows non-empty so nothing turns NaN). The complement of the future must use triu(..., diagonal=1)."),
    )
