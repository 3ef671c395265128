import torch
from lib import *
N = "r80_long_context_lm"
FIX = [("mask = torch.triu(tensor, diagonal=-sliding_window + 1)", "mask = torch.triu(torch.tril(tensor, diagonal=0), diagonal=-sliding_window + 1)")]
c = causal_probe(N, vocab=64)
fc = causal_probe(fixed_name(N, FIX), vocab=64)
tw, twr = twin_diff(N, FIX)
assert c > 1e-2 and fc < 1e-6
report(name=N, verdict="buggy", harm="causal", fix=FIX, causal_maxdiff=c, fixed_causal_maxdiff=fc, fixed_twin_maxdiff=tw, fixed_twin_rel=twr,
       note="sliding-window band built with triu only: the lower window bound is kept but the causal upper bound is lost, every token sees all later tokens")
