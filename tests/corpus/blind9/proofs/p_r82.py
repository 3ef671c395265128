import math, torch
from lib import *
N = "r82_prunable_encoder"
m, a, kw = build(N)
am = a[1]
p = pad_probe(N, 0, am == 0, vocab=50, keep=(am == 1))
tr = maxdiff(run(N)[1:, :5], run(N, lambda m_, a_, kw_: ([a_[0][1:, :5], a_[1][1:, :5]], kw_)))
att = m.layers[0].attention
x = torch.randn(2, 9, 32)
ext = (1.0 - am[:, None, None, :].float()) * torch.finfo(torch.float32).min
with torch.no_grad():
    y = att(x, ext, kw["head_mask"][0][None, :, None, None])
    outs = []
    for h in range(4):
        sl = slice(8 * h, 8 * h + 8)
        s = att.query(x)[..., sl] @ att.key(x)[..., sl].transpose(1, 2) / math.sqrt(8)
        s = s.masked_fill(am[:, None, :] == 0, float("-inf"))
        o = s.softmax(-1) @ att.value(x)[..., sl]
        outs.append(o * kw["head_mask"][0][h])
    r = att.output(torch.cat(outs, -1))
ref = maxdiff(y, r)
nohm = maxdiff(run(N), run(N, lambda m_, a_, kw_: (a_, {})))
det = determinism(N)
assert max(p, tr, ref, det) < 1e-5 and nohm > 1e-3
report(name=N, verdict="correct", pad_perturb_diff=p, truncation_diff=tr, pruned_head_loop_ref_diff=ref, head_mask_effect=nohm, eval_repeat_diff=det,
       note="multiplying probabilities by head_mask after softmax is intended head pruning, not a mask-after-softmax error")
