from lib import *
from perprobe import perceiver_probes
N = "r23_latent_io_model"
p, tr = perceiver_probes(N)
b = batch_probe(N)
det = determinism(N)
assert max(p, tr, b, det) < 1e-5
report(name=N, verdict="correct", pad_perturb_diff=p, truncation_diff=tr, batch_diff=b, eval_repeat_diff=det)
