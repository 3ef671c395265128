from lib import *
N = "r90_tiny_lm"
FIX = [("self.mask[:, :, :T, :T].transpose(-2, -1) == 0", "self.mask[:, :, :T, :T] == 0")]
c = causal_probe(N, vocab=48)
tw, twr = twin_diff(N, FIX)
assert c > 1e-2
report(name=N, verdict="buggy", harm="causal", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c,
       note="transposed tril: each query sees itself and all later tokens")
