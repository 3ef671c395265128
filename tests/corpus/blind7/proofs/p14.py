import torch
from _util import *
N = "c14_encdec_chunked_decode"
R = Report(N, "bug")
res = causal_probe(N, 2, 1, 1, [0, 1, 2, 3, 4, 6], None)
for t, v in res.items():
    if t in (0, 1, 2):
        R.inv(f"first chunk: logits <= {t} unchanged when tokens > {t} change", v)
    else:
        R.harm(f"later chunk: logits <= {t} move when tokens > {t} change", v)
# reference: parallel causal decode over the full target with the same weights
m, a, _ = fresh(N)
src, lens, tgt = a
full = call(m, a)
with torch.no_grad():
    m.chunk = 1
    one = m(src, lens, tgt)
R.harm("chunked decode differs from token-by-token decode", md(full, one))
base, a, _ = run(N)
def mut(a, k): perturb_tail(a[0][1:2], 1, 5, scale=10.0)
y, _, _ = run(N, mut)
R.inv("source padding respected (padded src frames do not move sample 1)", md(base[1], y[1]))
R.done()
