from lib import *
from padpool import pooled_probes
N = "r34_retrieval_encoder"
FIX = [("        embeddings = token_embeddings.mean(dim=1)", "        m = attention_mask.unsqueeze(-1).to(token_embeddings.dtype)\n        embeddings = (token_embeddings * m).sum(1) / m.sum(1).clamp(min=1e-9)")]
p, tr, e = pooled_probes(N, 60, [(0, 5), (2, 3)])
tw, twr = twin_diff(N, FIX)
fp, ftr, fe = pooled_probes(fixed_name(N, FIX), 60, [(0, 5), (2, 3)])
assert max(fp, ftr, fe) < 1e-5
assert max(p, tr, e) > 1e-2
report(name=N, verdict="buggy", harm="padding", fix=FIX, pad_content_perturb_diff=p, truncation_diff=tr, extra_padding_diff=e, fixed_twin_maxdiff=tw, fixed_pad_perturb=fp, fixed_truncation=ftr, fixed_extra_padding=fe,
       note="unmasked mean over the sequence averages pad-position hidden states into the sentence embedding")
