from lib import *
from padpool import pooled_probes
N = "r26_review_classifier"
FIX = [("        pooled = hidden_states[:, -1]", "        pooled = hidden_states[torch.arange(input_ids.shape[0]), attention_mask.sum(-1) - 1]")]
p, tr, e = pooled_probes(N, 70, [(0, 7), (2, 4)])
tw, twr = twin_diff(N, FIX)
fp, ftr, fe = pooled_probes(fixed_name(N, FIX), 70, [(0, 7), (2, 4)])
assert max(fp, ftr, fe) < 1e-5
pf = pad_probe(N, 0, build(N)[1][1] == 0, vocab=70)
assert max(p, tr, e) > 1e-2
report(name=N, verdict="buggy", harm="padding", fix=FIX, pad_content_perturb_logit_diff=p, truncation_logit_diff=tr, extra_padding_logit_diff=e, fixed_twin_maxdiff=tw, fixed_pad_perturb=fp, fixed_truncation=ftr, fixed_extra_padding=fe,
       note="right-padded batch pooled at index -1: for padded rows the classifier reads the hidden state of a pad token")
