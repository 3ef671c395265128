from lib import *
N = "r38_linear_bias_lm"
FIX = [("alibi_bias = torch.arange(1 - seq_len, 1, dtype=torch.int32).view(1, 1, seq_len, 1)", "alibi_bias = torch.arange(1 - seq_len, 1, dtype=torch.int32).view(1, 1, 1, seq_len)")]
NOBIAS = [("attn_bias = build_alibi_bias(self.n_heads, S, dtype=x.dtype)", "attn_bias = None")]
tw, twr = twin_diff(N, FIX)
nb = maxdiff(run(N), run_fixed(N, NOBIAS))
nbf = maxdiff(run_fixed(N, FIX), run_fixed(N, NOBIAS))
c = causal_probe(N, vocab=60)
assert tw > 1e-2 and nb < 1e-5 and nbf > 1e-2
report(name=N, verdict="buggy", harm="axis", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, buggy_vs_no_alibi=nb, fixed_vs_no_alibi=nbf, causal_maxdiff=c,
       note="bias varies along the query axis only: constant within each softmax row, so the model has no positional signal at all")
