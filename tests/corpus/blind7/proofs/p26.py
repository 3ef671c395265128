import torch
from _util import *
N = "c26_gqa_decoder"
R = Report(N, "bug")
R.harm("batch: sample 0 moves when only sample 1 changes", batch_probe(N, [0]))
R.harm("batch: sample 1 moves when only sample 0 changes", batch_probe(N, [0], 0, 1))
mod = load(N)
x = torch.randn(2, 2, 5, 8)
ref = x.repeat_interleave(2, dim=1)
got = mod.repeat_kv(x, 2)
R.harm("repeat_kv differs from per-sample repeat_interleave", md(got, ref))
R.inv("repeat_kv: sample 0 head 2 IS sample 1 kv head 0 (diff)", md(got[0, 2], x[1, 0]), 0.0)
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6], None).items():
    R.inv(f"(still causal) outputs <= {t} unchanged when tokens > {t} change", v)
R.done()
