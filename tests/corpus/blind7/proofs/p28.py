import torch
from _util import *
N = "c28_t5_decoder_selfattn"
R = Report(N, "bug")
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6], None).items():
    R.harm(f"outputs <= {t} move when inputs > {t} change", v)
m, a, _ = fresh(N)
att = m.attn
x = m.ln1(a[0])
with torch.no_grad():
    B, T, _ = x.shape
    q = att.q(x).view(B, T, 4, 8).transpose(1, 2); k = att.k(x).view(B, T, 4, 8).transpose(1, 2)
    s = q @ k.transpose(-1, -2) + att.compute_bias(T)
    w = s.softmax(-1).masked_fill(~torch.ones(T, T, dtype=torch.bool).tril(), 0.0)
R.harm("attention rows do not sum to 1 (max |1-sum|)", (1 - w.sum(-1)).abs().max().item())
R.done()
