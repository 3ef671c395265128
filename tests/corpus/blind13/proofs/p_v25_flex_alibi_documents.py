from lib import *

NAME = "v25_flex_alibi_documents"

def result():
    doc0 = lambda a, k: a[1] == 0
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 64), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
            "document": (perturb(0, doc0, 0, 64), lambda o, a, k: o[a[1] != 0]),
        },
        note="document = tokens of the first packed document change; the later documents' outputs must not",
        label=dict(line_sub="return score + slopes[h] * (kv_idx - q_idx)",
                   why="mask_mod returns True where attention is allowed (flex_attention's convention) and keeps keys at or before the query inside the same document; the ALiBi score_mod adds slope * (kv - q) <= 0 for visible keys (its positive values fall on masked future keys only). Packed documents do not see each other and outputs are causal."),
    )
