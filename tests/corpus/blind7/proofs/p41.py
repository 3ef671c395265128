import torch
import torch.nn.functional as F
from _util import *
N = "c41_custom_layernorm_encoder"
R = Report(N, "bug")
mod = load(N)
ln = mod.LayerNorm(16)
x = torch.randn(2, 8, 16)
with torch.no_grad():
    got = ln(x)
ref = F.layer_norm(x, (16,), eps=1e-5)
R.harm("hand-written LayerNorm vs F.layer_norm (max abs diff)", md(got, ref))
R.harm("output std per row (should be ~1.0): deviation", abs(got.std(-1, unbiased=False).mean().item() - 1.0))
print("ratio got/ref:", (got / ref).median().item(), "expected sqrt((d-1)/d) =", (15 / 16) ** 0.5)
m, a, _ = fresh(N)
base = call(m, a)
for L in [m.ln_f] + [b.ln1 for b in m.blocks] + [b.ln2 for b in m.blocks]:
    L.forward = (lambda self: (lambda z: F.layer_norm(z, (16,), self.weight, self.bias, self.eps)))(L)
R.harm("model output vs same model with exact LayerNorm", md(base, call(m, a)))
base2, _, _ = run(N)
def mut(a, k): a[0][1, 5:] = (a[0][1, 5:] + 17) % 50
y, _, _ = run(N, mut)
R.inv("padding respected (real tokens unchanged when pads change)", md(base2[1, :5], y[1, :5]))
R.done()
