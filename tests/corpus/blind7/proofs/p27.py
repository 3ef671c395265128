import torch
from _util import *
N = "c27_ntk_rope_gqa_qknorm"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6, 8], None).items():
    R.inv(f"outputs <= {t} unchanged when inputs > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
x = torch.randn(2, 2, 5, 8)
R.inv("repeat_kv == repeat_interleave on head axis", md(mod.repeat_kv(x, 3), x.repeat_interleave(3, dim=1)), 0.0)
inv = mod.ntk_inv_freq(8, 10000.0, 4.0)
ref = torch.tensor([(10000.0 * 4.0 ** (8 / 6)) ** (-(2 * i) / 8) for i in range(4)])
R.inv("NTK inv_freq == base*s^(d/(d-2)) formula (rel)", md(inv / ref, torch.ones(4)), 1e-6)
for dt, tol in ((torch.float32, 1e-5), (torch.float64, 1e-12)):
    m, a, _ = fresh(N)
    m = m.to(dt)
    with torch.no_grad():
        y0 = m(a[0].to(dt), a[1]); y1 = m(a[0].to(dt), a[1] + 5)
    R.inv(f"{dt}: invariant to shifting position ids by 5", md(y0, y1), tol)
# qk-norm is per head vector: scaling one head's q by a constant does nothing to that head
q = torch.randn(2, 10, 6, 8)
m, a, _ = fresh(N)
qn = m.self_attn.q_norm
with torch.no_grad():
    r = (qn(q) / qn.weight).pow(2).mean(-1)
R.inv("q_norm normalises each head vector (|rms^2 - 1| over last dim)", md(r, torch.ones_like(r)), 1e-5)
R.done()
