from lib import *

NAME = "w44_kv_beam_reorder"


def replay_ref(mod):
    """follow each final beam's back-pointers, rebuild its token history, and score it from scratch"""
    model, args, kw = build(mod)
    prompt, toks, parents = args
    out = run(model, args, kw)
    S, R = toks.shape
    worst = 0.0
    for r in range(R):
        hist, row = [], r
        for s in range(S - 1, -1, -1):
            hist.append(toks[s, row].item())
            row = parents[s, row].item()
        seq = torch.cat([prompt[row], torch.tensor(hist[::-1])])[None]
        with torch.no_grad():
            logits, _ = model.step(seq, None, 0)
        worst = max(worst, maxdiff(out[r, -1], logits[0, -1]))
    return worst


group1 = lambda a, k: torch.arange(a[0].size(0)) >= 3


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (chain(perturb(0, group1, 0, 50), perturb(1, lambda a, k: (torch.arange(6) >= 3)[None].expand(4, 6), 0, 50)),
                      lambda o, a, k: o[:3]),
        },
        ref=replay_ref,
        note="batch = changing the second prompt (rows 3..5 and their tokens) leaves the first prompt's beams unchanged; ref = every final beam re-scored from scratch along its back-pointers",
        label=dict(line_sub="return [tuple(t.index_select(0, beam_idx) for t in layer) for layer in past]",
                   why="Cache tensors are (batch*beams, heads, T, dh); index_select on dim 0 moves each beam's whole history to the row of the beam that continues it. Rows of the flattened batch axis are meant to exchange histories within a prompt's group (beam_idx stays inside the group); different prompts never mix, and every final beam equals a fresh pass over its reconstructed token sequence."),
    )
