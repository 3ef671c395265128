import math, torch, torch.nn.functional as F
from lib import *
N = "r50_sensor_forecaster"
c = causal_probe(N)
nan = has_nan(N)
m, a, kw = build(N)
att = m.blocks[0].attn
x = 40.0 * torch.randn(2, 12, 32)
with torch.no_grad():
    f = lambda t: t.view(2, 12, 4, 8).transpose(1, 2)
    r = att.wo(F.scaled_dot_product_attention(f(att.wq(x)), f(att.wk(x)), f(att.wv(x)), is_causal=True).transpose(1, 2).reshape(2, 12, 32))
    ref = maxdiff(att(x), r) / r.abs().max().item()
    q = f(att.wq(x)); k = f(att.wk(x))
    max_score = (q @ k.transpose(-1, -2) / math.sqrt(8)).abs().max().item()
det = determinism(N)
b = batch_probe(N)
assert c < 1e-5 and not nan and ref < 1e-5 and det == 0
report(name=N, verdict="correct", causal_maxdiff=c, any_nan=nan, sdpa_ref_rel_diff=ref, max_abs_score_probe=max_score, eval_repeat_diff=det, batch_diff=b)
