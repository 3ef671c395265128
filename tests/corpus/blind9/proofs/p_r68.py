import torch, torch.nn.functional as F
from lib import *
N = "r68_intent_encoder"
FIX = [("        var = (x * x).mean(-1, keepdim=True)", "        var = ((x - mean) ** 2).mean(-1, keepdim=True)")]
m, a, kw = build(N)
ln = m.layers[0].norm1
x = torch.randn(4, 8, 32) + 2.0
with torch.no_grad():
    ref = maxdiff(ln(x), F.layer_norm(x, (32,), ln.gamma, ln.beta, ln.eps))
    out_std = ln(x).std(-1).mean().item()
fm = load_patched(N, FIX).build()[0]
with torch.no_grad():
    fref = maxdiff(fm.layers[0].norm1(x), F.layer_norm(x, (32,), ln.gamma, ln.beta, ln.eps))
tw, twr = twin_diff(N, FIX)
b = batch_probe(N)
assert ref > 1e-2 and fref < 1e-5
report(name=N, verdict="buggy", harm="numeric", fix=FIX, layernorm_vs_F_layer_norm=ref, fixed_layernorm_vs_F_layer_norm=fref, normalized_output_std_should_be_1=out_std,
       fixed_twin_maxdiff=tw, fixed_twin_rel=twr, batch_diff=b,
       note="variance taken as E[x^2] instead of E[(x-mean)^2]: with a nonzero mean the output is shrunk (std < 1)")
