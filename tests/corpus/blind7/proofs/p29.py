import math
import torch
from _util import *
N = "c29_t5_encoder_buckets"
R = Report(N, "correct")
mod = load(N)
base, a, _ = run(N)
def mut(a, k): a[0][1, 7:] = (a[0][1, 7:] + 13) % 40
y, _, _ = run(N, mut)
R.inv("sample 1 real tokens unchanged when its padded tokens change", md(base[1, :7], y[1, :7]))
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
def bucket_ref(rp, nb=8, md_=20):
    nb //= 2
    ret = nb if rp > 0 else 0
    n = abs(rp)
    me = nb // 2
    if n < me:
        return ret + n
    v = me + int(math.log(n / me) / math.log(md_ / me) * (nb - me))
    return ret + min(v, nb - 1)
rel = torch.arange(-30, 31)
got = mod.relative_position_bucket(rel, True, 8, 20)
ref = torch.tensor([bucket_ref(int(r)) for r in rel])
R.inv("bidirectional buckets == scalar reference (mismatches)", float((got != ref).sum()), 0.0)
R.inv("buckets distinguish direction: b(+3) != b(-3)", float(got[33] == got[27]), 0.0)
# the T5 design puts no 1/sqrt(d) in the logits; check against an explicit unscaled reference for layer 0
m, a, _ = fresh(N)
ids, am = a
with torch.no_grad():
    x = m.embed(ids)
    L = m.layers[0]
    h = L["ln1"](x)
    att = L["attn"]
    q = att.q(h).view(2, 12, 4, 8); k = att.k(h).view(2, 12, 4, 8); v = att.v(h).view(2, 12, 4, 8)
    rp = torch.arange(12)[None] - torch.arange(12)[:, None]
    bias = att.relative_attention_bias(torch.tensor([[bucket_ref(int(r)) for r in row] for row in rp])).permute(2, 0, 1)
    s = torch.einsum("bihd,bjhd->bhij", q, k) + bias
    s = s.masked_fill(am[:, None, None, :] == 0, float("-inf"))
    ref = att.o(torch.einsum("bhij,bjhd->bihd", s.softmax(-1), v).reshape(2, 12, 32))
    got, _ = att(h, None, (1.0 - am[:, None, None, :].float()) * torch.finfo(torch.float32).min)
R.inv("layer-0 attention == explicit T5 reference (unscaled logits, -inf key mask)", md(got[0], ref[0]) + md(got[1, :7], ref[1, :7]), 1e-6)
R.done()
