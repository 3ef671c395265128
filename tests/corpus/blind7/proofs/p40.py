import torch
import torch.nn.functional as F
from _util import *
N = "c40_prescaled_query_attn"
R = Report(N, "correct")
base, a, _ = run(N)
def mut(a, k): a[0][1, 6:] = (a[0][1, 6:] + 9) % 40
y, _, _ = run(N, mut)
R.inv("padded tokens do not move real positions", md(base, y))
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
m, a, _ = fresh(N)
att = m.layers[0][1]
x = torch.randn(2, 10, 32)
keep = a[1].bool()
with torch.no_grad():
    got = att(x, keep)
    q, k, v = att.to_qkv(x).view(2, 10, 3, 4, 8).unbind(2)
    s = torch.einsum("bihd,bjhd->bhij", q, k) / 8 ** 0.5
    s = s.masked_fill(~keep[:, None, None, :], float("-inf"))
    ref = att.to_out(torch.einsum("bhij,bjhd->bihd", s.softmax(-1), v).reshape(2, 10, 32))
R.inv("== standard softmax(qk^T/sqrt(d_head)) reference", md(got, ref), 1e-6)
R.done()
