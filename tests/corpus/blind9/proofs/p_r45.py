from lib import *
N = "r45_gpt_small"
FIX = [('''        att = F.softmax(att, dim=-1)
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, 0.0)''', '''        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)''')]
c = causal_probe(N, vocab=64)
tw, twr = twin_diff(N, FIX)
m, a, kw = build(N)
import torch
rs = []
h = m.transformer.h[0].attn
x = torch.randn(2, 10, 32)
assert c > 1e-4
report(name=N, verdict="buggy", harm="causal", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c,
       note="softmax normalised over all keys before zeroing future ones: the denominator carries future scores into every row")
