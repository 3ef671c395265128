import torch
from lib import *
N = "r73_hub_vit"
b = batch_probe(N)
det = determinism(N)
other = maxdiff(run(N)[0], run(N, lambda m_, a_, kw_: ([torch.cat([a_[0][:1], a_[0][1:] + 3 * torch.randn_like(a_[0][1:])])], kw_))[0])
assert max(b, det, other) < 1e-5
report(name=N, verdict="correct", batch_diff=b, eval_repeat_diff=det, other_image_perturb_diff=other)
