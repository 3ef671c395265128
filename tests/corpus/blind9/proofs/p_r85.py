import torch
from lib import *
N = "r85_entropy_regularized_lm"
FIX = [("        entropy = -(att * att.log()).sum(dim=-1)", "        entropy = -torch.special.xlogy(att, att).sum(dim=-1)")]
aux = run(N, pick=second)
faux = run_fixed(N, FIX, pick=second)
c = causal_probe(N, vocab=64)
assert torch.isnan(aux).all() and torch.isfinite(faux).all()
report(name=N, verdict="buggy", harm="numeric", fix=FIX, aux_output=float(aux), fixed_aux_output=float(faux), logits_causal_maxdiff=c,
       note="masked probabilities are exactly 0; 0 * log(0) = 0 * -inf = NaN, so the returned entropy term is NaN on every input with a causal mask")
