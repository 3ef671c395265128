from lib import *

NAME = "z28_ast_freq_time_pos"


def grid_ref(mod):
    """the factorised embedding equals conv + (freq_pos[f] + time_pos[t]) at token f*T'+t"""
    model, args, kw = build(mod)
    e = model.embed
    with torch.no_grad():
        got = e(args[0])
        conv = e.proj(args[0].unsqueeze(1))
        D, Fp, Tp = conv.shape[1:]
        want = torch.empty_like(got)
        for f in range(Fp):
            for t in range(Tp):
                want[:, f * Tp + t] = conv[:, :, f, t] + e.freq_pos[0, :, f, 0] + e.time_pos[0, :, 0, t]
    return maxdiff(got, want)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 0)), samp(2))},
        ref=refs(grid_ref, solo(1)),
        label=dict(line_sub="x = x + self.freq_pos + self.time_pos[..., : x.size(-1)]",
                   why="The position tables are laid out (1, D, F', 1) and (1, D, 1, T_max) to match the channel-first patch grid (B, D, F', T'), so the frequency table varies along F' and the time table (sliced to T') along T'; the feature axis is D in both."),
    )
