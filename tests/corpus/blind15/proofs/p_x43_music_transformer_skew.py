from lib import *

NAME = "x43_music_transformer_skew"


def gather_ref(att, x):
    """relative logits gathered explicitly: S[i, j] = q_i . Er[max_len - 1 - (i - j)] for j <= i"""
    B, T, _ = x.shape
    q = att.Wq(x).view(B, T, att.h, att.dh).transpose(1, 2)
    k = att.Wk(x).view(B, T, att.h, att.dh).transpose(1, 2)
    v = att.Wv(x).view(B, T, att.h, att.dh).transpose(1, 2)
    i = torch.arange(T)[:, None]
    j = torch.arange(T)[None, :]
    dist = (i - j).clamp(min=0)
    E = att.Er[att.max_len - 1 - dist]                       # (T, T, dh)
    S = torch.einsum("bhid,ijd->bhij", q, E)
    logits = (q @ k.transpose(-2, -1) + S) / math.sqrt(att.dh)
    logits = logits.masked_fill(j > i, float("-inf"))
    out = logits.softmax(-1) @ v
    return att.fc(out.transpose(1, 2).reshape(B, T, -1))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 9), 0, 388), upto(9)),
            "batch": (perturb(0, sample(0, 1), 0, 388), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.layers[0].rga, gather_ref), module_ref(lambda m: m.layers[1].rga, gather_ref)),
        note="ref = each attention with the relative logits gathered explicitly by distance i - j",
        label=dict(line_sub="return padded.reshape(B, H, cols, rows)[:, :, 1:, :]",
                   why="The skew pads one column on the left, reshapes (T, T+1) to (T+1, T) and drops the first row, which moves q_i . Er[r] to column j = i - (T-1-r): S_rel[i, j] = q_i . Er[max_len-1-(i-j)] exactly for j <= i; the entries above the diagonal are garbage by construction and are removed by the causal -inf mask before the softmax."),
    )
