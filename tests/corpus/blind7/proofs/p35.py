import torch
from _util import *
N = "c35_graph_attention_b"
R = Report(N, "correct")
m, a, _ = fresh(N)
x, adj = a
base = call(m, a)
adjs = adj | torch.eye(8, dtype=torch.bool)
worst = 0.0
for b in range(2):
    for i in range(8):
        for j in range(8):
            if adjs[b, i, j]:
                continue
            x2 = x.clone(); x2[b, j] = torch.randn(12) * 3
            y = call(m, [x2, adj])
            worst = max(worst, md(base[b, i], y[b, i]))
R.inv("every node ignores every non-neighbour (single layer)", worst, 0.0)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
L = m.layer
with torch.no_grad():
    xl = L.lin_l(x).view(2, 8, 2, 8); xr = L.lin_r(x).view(2, 8, 2, 8)
    ref = torch.zeros(2, 8, 2, 8)
    for b in range(2):
        for i in range(8):
            nb = adjs[b, i].nonzero().flatten()
            sc = (torch.nn.functional.leaky_relu(xr[b, i][None] + xl[b, nb], 0.2) * L.att).sum(-1)
            w = sc.softmax(0)
            ref[b, i] = (w[..., None] * xl[b, nb]).sum(0)
    got = L(x, adjs)
R.inv("GATv2 layer == per-node loop reference", md(got, ref.reshape(2, 8, 16)), 1e-6)
def perm(a, k):
    p = torch.tensor([3, 0, 7, 1, 6, 2, 5, 4])
    a[0][:] = a[0][:, p].clone()
    a[1][:] = a[1][:, p][:, :, p].clone()
yp, ap, _ = run(N, perm)
p = torch.tensor([3, 0, 7, 1, 6, 2, 5, 4])
R.inv("permutation equivariance of nodes", md(yp, base[:, p]), 1e-6)
R.done()
