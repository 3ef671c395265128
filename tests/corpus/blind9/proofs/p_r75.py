import torch, torch.nn.functional as F
from lib import *
N = "r75_sdpa_decoder"
m, a, kw = build(N)
am = a[1]
c = causal_probe(N, vocab=64, keep=(am == 1))
p = pad_probe(N, 0, am == 0, vocab=64, keep=(am == 1))
tr = max(maxdiff(run(N)[i:i+1, :L], run(N, lambda m_, a_, kw_, i=i, L=L: ([a_[0][i:i+1, :L], a_[1][i:i+1, :L]], kw_))) for i, L in [(1, 6), (2, 3)])
x = torch.randn(3, 10, 32)
att = m.layers[0].attn
with torch.no_grad():
    q, k, v = att.qkv(x).view(3, 10, 3, 4, 8).permute(2, 0, 3, 1, 4)
    allowed = torch.ones(10, 10).tril().bool()[None, None] & am.bool()[:, None, None, :]
    r = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed) if False else None
    s = (q @ k.transpose(-1, -2)) / 8 ** 0.5
    s = s.masked_fill(~allowed, float("-inf"))
    r = att.out((s.softmax(-1) @ v).transpose(1, 2).reshape(3, 10, 32))
    y = att(x, am)
ref = maxdiff(y, r)
det = determinism(N)
assert max(c, p, tr, ref, det) < 1e-4
report(name=N, verdict="correct", causal_maxdiff=c, pad_perturb_diff=p, truncation_diff=tr, explicit_causal_and_padding_ref_diff=ref, eval_repeat_diff=det,
       note="torch 2.13 CPU SDPA with attn_mask and is_causal=True applies both (verified against explicit combined mask)")
