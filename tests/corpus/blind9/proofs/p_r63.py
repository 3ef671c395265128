import torch
from lib import *
N = "r63_linear_attention_lm"
c = causal_probe(N, vocab=64)
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
at = m.layers[0].attention
x = torch.randn(2, 12, 32)
with torch.no_grad():
    Q = torch.nn.functional.elu(at.query_projection(x).view(2, 12, 4, 8)) + 1
    K = torch.nn.functional.elu(at.key_projection(x).view(2, 12, 4, 8)) + 1
    V = at.value_projection(x).view(2, 12, 4, 8)
    out = torch.zeros_like(V)
    for t in range(12):
        w = torch.einsum("nhd,nshd->nhs", Q[:, t], K[:, : t + 1])
        w = w / (w.sum(-1, keepdim=True) + 1e-6)
        out[:, t] = torch.einsum("nhs,nshm->nhm", w, V[:, : t + 1])
    ref = maxdiff(at(x), at.out_projection(out.reshape(2, 12, 32)))
assert max(c, det, b) < 1e-5 and ref < 1e-4
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, batch_diff=b, loop_ref_diff=ref,
       note="causal linear attention via prefix sums (no softmax, no mask needed)")
