from lib import *
N = "r74_seqfirst_tagger"
FIX = [("h = x.view(T, B, C)", "h = x.transpose(0, 1)"), ("a = a.view(B, T, C)", "a = a.transpose(0, 1)")]
b = batch_probe(N)
tw, twr = twin_diff(N, FIX)
fb_m = load_patched(N, FIX)
assert b > 1e-2
report(name=N, verdict="buggy", harm="batch", fix=FIX, batch_diff=b, fixed_twin_maxdiff=tw, fixed_twin_rel=twr,
       note="view(T,B,C) on a (B,T,C) tensor is not a transpose: the sequence-first MHA attends across rows from different samples")
