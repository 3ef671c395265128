from lib import *

NAME = "f14_landmark_attention"


def landmark_ref(m, x, is_landmark):
    """grouped softmax written per query: own-block earlier tokens + landmarks of FINISHED blocks,
    each landmark's weight spread over its block's tokens by a softmax within the block"""
    B, T, D = x.shape
    H, dh, L = m.heads, m.dh, m.block
    q, k, v = m.qkv(x).view(B, T, 3, H, dh).permute(2, 0, 3, 1, 4)
    s = q @ k.transpose(-1, -2) / math.sqrt(dh)
    A = torch.zeros(B, H, T, T)
    for b in range(B):
        lmk = is_landmark[b]
        for i in range(T):
            bi = i // L
            direct = [j for j in range(bi * L, i + 1) if not lmk[j]]
            marks = [j for j in range(T) if lmk[j] and j // L < bi]
            cand = direct + marks
            w = torch.softmax(s[b, :, i, cand], dim=-1)
            for a, j in enumerate(cand):
                if j in direct:
                    A[b, :, i, j] += w[:, a]
                else:
                    toks = [t for t in range(j // L * L, j // L * L + L) if not lmk[t]]
                    A[b, :, i, toks] += w[:, a:a + 1] * torch.softmax(s[b, :, i, toks], dim=-1)
    return m.out((A @ v).transpose(1, 2).reshape(B, T, D))


def result():
    not_landmark = lambda a, k: a[0] != 1
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("via_landmark = lm & (blk[None, :] <= blk[:, None])", "via_landmark = lm & (blk[None, :] < blk[:, None])")],
        checks={
            "causal": (perturb(0, both(after(0, 8), not_landmark), 2, 200), upto(8)),
            "batch": (perturb(0, both(sample(0, 1), not_landmark), 2, 200), samp(0)),
        },
        ref=module_ref(lambda m: m.attn[0], landmark_ref),
        note="ref = first layer vs grouped softmax over own-block tokens and landmarks of finished blocks",
        label=dict(expected=["causal-leak"], line_sub="via_landmark = lm & (blk[None, :] <= blk[:, None])",
                   also_subs=[], also_ok_codes=[], consequence_codes=[],
                   why="Landmarks are compared with <=, so a query also reads the landmark of its own, unfinished block, which sits at the end of the block, and the weight it wins is spread over every token of that block. Tokens before the landmark therefore attend to later tokens of their block."),
    )
