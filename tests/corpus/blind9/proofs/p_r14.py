from lib import *
N = "r14_minimal_gpt"
FIX = [("y = y.contiguous().view(B, T, C)", "y = y.transpose(1, 2).contiguous().view(B, T, C)")]
c = causal_probe(N, vocab=48)
tw, twr = twin_diff(N, FIX)
assert c > 1e-2
report(name=N, verdict="buggy", harm="causal", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c,
       note="(B,H,T,D) viewed as (B,T,C) without transposing: output row t is assembled from head outputs of several time steps, including later ones")
