import torch, torch.nn.functional as F
from lib import *

N = "r29_seq2seq_base"
m, a, kw = build(N)
src, tgt = a[0], a[1]
c = causal_probe(N, idx=1, vocab=40)
ps = pad_probe(N, 0, src == 0, vocab=40)
pt = pad_probe(N, 1, tgt == 0, vocab=40, keep=(tgt != 0))
b = batch_probe(N)
det = determinism(N)
mha = m.decoder.layers[0].src_attn
x = torch.randn(2, 7, 32); mem = torch.randn(2, 9, 32)
with torch.no_grad():
    y = mha(x, mem, mem, a[2])
    f = lambda lin, t: lin(t).view(2, -1, 4, 8).transpose(1, 2)
    r = F.scaled_dot_product_attention(f(mha.linears[0], x), f(mha.linears[1], mem), f(mha.linears[2], mem), attn_mask=a[2].unsqueeze(1))
    r = mha.linears[3](r.transpose(1, 2).reshape(2, 7, 32))
ref = maxdiff(y, r)
assert max(c, ps, pt, b, det, ref) < 1e-4
report(name=N, verdict="correct", causal_maxdiff=c, src_pad_diff=ps, tgt_pad_diff=pt, batch_diff=b, eval_repeat_diff=det, sdpa_ref_diff=ref)
