import torch
from _util import *
N = "c45_causal_self_attn_heads"
R = Report(N, "bug")
for t, v in causal_probe(N, 0, 1, 1, [0, 2, 4, 6], None).items():
    R.harm(f"logits <= {t} move when tokens > {t} change", v)
mod = load(N)
att = mod.CausalSelfAttention(32, 4)
x = torch.arange(2 * 8 * 32, dtype=torch.float32).view(2, 8, 32)
split = att._split_heads(x, 2, 8, 32)
ref = x.view(2, 8, 4, 8).transpose(1, 2)
R.harm("split differs from view(B,T,H,dh).transpose(1,2)", md(split, ref))
src_t = (split[0, 3, 0, 0] // 32).item()
print("head 3, slot t=0 holds the features of time step", int(src_t))
R.done()
