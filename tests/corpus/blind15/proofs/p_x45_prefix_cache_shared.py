from lib import *

NAME = "x45_prefix_cache_shared"

realu = lambda o, a, k: o[a[1] == 1]


def uncached(i, n):
    """request i alone, system prompt and user tokens in one uncached causal pass"""
    def ref(mod):
        model, args, kw = build(mod)
        out = run(model, args, kw)
        s = kw["system_ids"]
        with torch.no_grad():
            full, _ = model.run(torch.cat([s, args[0][i:i + 1, :n]], dim=1), 0)
        return maxdiff(out[i:i + 1, :n], full[:, s.size(1):])
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: a[1] == 0, 1, 80), realu),
            "causal": (perturb(0, both(after(0, 2), lambda a, k: a[1] == 1), 1, 80), upto_real(2, 1)),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1] == 1), 1, 80), samp(0)),
        },
        ref=refs(uncached(0, 9), uncached(1, 6), uncached(2, 3)),
        note="ref = each request alone, system prompt + its user tokens in one uncached pass",
        label=dict(line_sub="k = torch.cat([pk.expand(B, -1, -1, -1), k], dim=2)",
                   why="The system prompt's keys/values come from a batch of one and are expanded (a broadcast view, not a mix) so each request reads the same prefix copy: coupling every request to the shared prompt is the design, and requests never see each other. The prefix columns are always visible, the request's own block is causal and masks its padding, and the user tokens' positions continue after the prompt. Each request matches an uncached run of prompt + request."),
    )
