import torch
from lib import *
N = "r10_rotary_lm"
FIX = [("cos, sin = self.rotary(q.shape[-2])", "cos, sin = (c[:, None, :] for c in self.rotary(t))")]
NOROPE = [("q = q * cos + rotate_half(q) * sin", "q = q"), ("k = k * cos + rotate_half(k) * sin", "k = k")]
tw, twr = twin_diff(N, FIX)
c = causal_probe(N, vocab=64)
norope_bug = maxdiff(run(N), run_fixed(N, NOROPE))
norope_fixed = maxdiff(run_fixed(N, FIX), run_fixed(N, NOROPE))
assert tw > 1e-2 and norope_bug < 1e-5 and norope_fixed > 1e-2
report(name=N, verdict="buggy", harm="axis", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c,
       buggy_vs_rotary_removed=norope_bug, fixed_vs_rotary_removed=norope_fixed,
       note="cos/sin sliced by q.shape[-2]=n_heads in (B,T,H,D) layout: angle indexed by head, identical for q and k of a head, so rotary has no effect at all")
