import torch
from _util import *
N = "c38_mae_encoder_b"
R = Report(N, "correct")
m, a, _ = fresh(N)
torch.manual_seed(1); y1 = call(m, a)
torch.manual_seed(2); y2 = call(m, a)
R.inv("two eval passes identical under different global RNG states", md(y1, y2), 0.0)
m2, a2, _ = fresh(N)
R.inv("rebuild reproduces noise and output", md(y1, call(m2, a2)), 0.0)
R.inv("batch: sample 0 after changing sample 1 image", batch_probe(N, [0]))
with torch.no_grad():
    _, mask, _ = m(*a)
dropped = mask[0].nonzero().flatten()
kept = (mask[0] == 0).nonzero().flatten()
R.inv("keeps 25% of patches", abs(len(kept) - 4), 0.0)
def mut(a, k):
    for pidx in dropped.tolist():
        r, c = divmod(pidx, 4)
        a[0][0, :, r * 4:(r + 1) * 4, c * 4:(c + 1) * 4] = torch.randn(3, 4, 4) * 5
base, _, _ = run(N)
y, _, _ = run(N, mut)
R.inv("encoder output ignores the content of masked-out patches", md(base, y), 0.0)
def mut2(a, k):
    r, c = divmod(kept[0].item(), 4)
    a[0][0, :, r * 4:(r + 1) * 4, c * 4:(c + 1) * 4] += torch.randn(3, 4, 4)
y2, _, _ = run(N, mut2)
R.harm("sanity: a kept patch does move the output", md(base, y2))
R.done()
