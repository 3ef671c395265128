from lib import *
N = "r06_nano_lm"
FIX = [("torch.tril(torch.ones(config.block_size, config.block_size), diagonal=1)", "torch.tril(torch.ones(config.block_size, config.block_size))")]
c = causal_probe(N, vocab=64)
c1 = causal_probe(N, vocab=64, tpos=[4])
tw, twr = twin_diff(N, FIX)
assert c > 1e-2
report(name=N, verdict="buggy", harm="causal", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c, causal_maxdiff_t4=c1,
       note="tril(diagonal=1) lets position t attend to t+1")
