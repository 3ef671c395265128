from lib import *
from padpool import pooled_probes
N = "r33_sentence_embedder"
p, tr, e = pooled_probes(N, 60, [(0, 5), (1, 8)])
b = batch_probe(N)
det = determinism(N)
assert max(p, tr, e, b, det) < 1e-5
report(name=N, verdict="correct", pad_content_perturb_diff=p, truncation_diff=tr, extra_padding_diff=e, batch_diff=b, eval_repeat_diff=det)
