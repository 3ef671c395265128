import torch, torch.nn.functional as F
from lib import *

N = "r03_text_encoder"
m, a, kw = build(N)
ids, am = a[0], kw["attention_mask"]
p_seq = pad_probe(N, 0, am == 0, vocab=50, keep=(am == 1))
def pp():
    base = run(N, pick=second)
    o = run(N, lambda m_, a_, kw_: ([perturb_like(a_[0], am == 0, vocab=50)], kw_), pick=second)
    return maxdiff(base, o)
p_pool = pp()
tr = max(trunc_probe(N, 1, 5), trunc_probe(N, 2, 3))
tr_pool = trunc_probe(N, 2, 3, pick=second, out_slice=False)
b = batch_probe(N)
det = determinism(N)
sa = m.encoder.layer[0].attention.self
x = torch.randn(3, 8, 32)
with torch.no_grad():
    ext = m.get_extended_attention_mask(am, torch.float32)
    y = sa(x, ext)
    f = lambda lin: lin(x).view(3, 8, 4, 8).transpose(1, 2)
    r = F.scaled_dot_product_attention(f(sa.query), f(sa.key), f(sa.value), attn_mask=am.bool()[:, None, None, :])
    r = r.transpose(1, 2).reshape(3, 8, 32)
ref = maxdiff(y, r)
assert max(p_seq, p_pool, tr, tr_pool, b, det, ref) < 1e-4
report(name=N, verdict="correct", pad_perturb_seq_diff=p_seq, pad_perturb_pooled_diff=p_pool, truncation_diff=tr, truncation_pooled_diff=tr_pool, batch_diff=b, eval_repeat_diff=det, sdpa_ref_diff=ref)
