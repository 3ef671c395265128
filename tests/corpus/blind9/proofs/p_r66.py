from lib import *
N = "r66_trainer_lm"
FIX = [("        x = x.reshape(1, b * t, -1)\n", "")]
b = batch_probe(N)
fb = batch_probe(fixed_name(N, FIX))
c = causal_probe(N, vocab=64)
tw, twr = twin_diff(N, FIX)
assert b > 1e-2 and fb < 1e-5
report(name=N, verdict="buggy", harm="batch", fix=FIX, batch_diff=b, fixed_batch_diff=fb, fixed_twin_maxdiff=tw, causal_probe_diff_via_earlier_samples=c,
       note="batch flattened into one causal stream without a document mask: sample i attends to every token of samples < i")
