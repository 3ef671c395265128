import torch
import torch.nn.functional as F
from _util import *
N = "c46_encdec_cached_decode"
R = Report(N, "correct")
for t, v in causal_probe(N, 2, 1, 1, [0, 1, 2, 3, 4, 5, 6, 7], None).items():
    R.inv(f"logits <= {t} unchanged when target tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1 src", batch_probe(N, [0]))
base, a, _ = run(N)
def mut(a, k): perturb_tail(a[0][1:2], 1, 4, scale=10.0)
y, _, _ = run(N, mut)
R.inv("padded source frames do not move sample 1 logits", md(base[1], y[1]))
m, a, _ = fresh(N)
src, lens, tgt = a
with torch.no_grad():
    memory, keep = m.encode(src, lens)
    x = m.embed(tgt) + m.pos(torch.arange(tgt.shape[1]))
    T = tgt.shape[1]
    for L in m.layers:
        h = L.n1(x)
        q, k, v = L.sa.qkv(h).view(2, T, 3, 4, 8).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + L.sa.o(o.transpose(1, 2).reshape(2, T, 32))
        x = x + L.ca(L.n2(x), memory, keep)
        x = x + L.ff(L.n3(x))
    ref = m.lm_head(m.norm(x))
R.inv("mixed-size cached chunk decode == one parallel causal pass", md(base, ref), 1e-5)
for cs in [(1,) * 9, (9,), (4, 5)]:
    m2, a2, _ = fresh(N)
    m2.chunk_sizes = cs
    R.inv(f"chunk schedule {cs[:3]}.. gives the same logits", md(call(m2, a2), base), 1e-5)
R.done()
