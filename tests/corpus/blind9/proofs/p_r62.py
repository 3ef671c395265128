import torch
from lib import *
N = "r62_story_generator"
FIX = [("x = x + self.pe[: x.size(0)]", "x = x + self.pe[: x.size(1)].transpose(0, 1)")]
b = batch_probe(N)
c = causal_probe(N, vocab=50)
tw, twr = twin_diff(N, FIX)
m = load_patched(N, FIX)
def bfix():
    base = run_fixed(N, FIX)
    return max(maxdiff(base[i:i+1], run_fixed(N, FIX, lambda m_, a_, kw_, i=i: ([a_[0][i:i+1]], kw_))) for i in range(3))
bf = bfix()
assert b > 1e-2 and bf < 1e-4
report(name=N, verdict="buggy", harm="batch", fix=FIX, batch_diff=b, fixed_batch_diff=bf, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c,
       note="sequence-first (max_len,1,d) table indexed by x.size(0)=batch in a batch_first model: sample i gets the encoding of position i on every token")
