from lib import *
N = "r54_gpt_code"
FIX = [('att = att.masked_fill(self.bias[:, :, :T, :T] == 0, 0.0)', 'att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))')]
c = causal_probe(N, vocab=64)
tw, twr = twin_diff(N, FIX)
assert c > 1e-2
report(name=N, verdict="buggy", harm="causal", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c,
       note="future scores set to 0 instead of -inf: future keys keep weight exp(0)")
