import torch
from _util import *
N = "c50_streaming_chunk_encoder"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [3, 7], None).items():
    R.inv(f"chunk-causal: frames <= {t} (chunk boundary) unchanged when frames > {t} change", v)
r = causal_probe(N, 0, 1, 1, [1], None)[1]
R.harm("by design: within-chunk lookahead (frame 1 sees frames 2,3 of its chunk)", r)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
M = mod.chunk_attention_mask(12, 4, 1)
ref = torch.tensor([[(j // 4 <= i // 4) and (j // 4 >= i // 4 - 1) for j in range(12)] for i in range(12)])
R.inv("mask == loop reference (mismatches)", float((M != ref).sum()), 0.0)
m, a, _ = fresh(N)
layer = m.layers[0]
x = torch.randn(2, 12, 32)
with torch.no_grad():
    y0 = layer(x, M)
    x2 = x.clone(); x2[:, :4] = torch.randn(2, 4, 32) * 3
    y1 = layer(x2, M)
R.inv("one layer: chunk 2 ignores chunk 0 (beyond left context)", md(y0[:, 8:], y1[:, 8:]), 0.0)
with torch.no_grad():
    stream = m(a[0][:, :8])
R.inv("first two chunks == encoding only the first 8 frames (streaming)", md(call(m, a)[:, :8], stream), 1e-6)
R.done()
