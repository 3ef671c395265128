import torch
from lib import *
from swinprobe import dep_map
N = "r09_hier_vision"
dm = dep_map(N, 63)
expected = torch.zeros(8, 8, dtype=torch.bool); expected[4:8, 4:8] = True
outside = dm[~expected].max().item()
inside_min = dm[expected].min().item()
dm0 = dep_map(N, 0)
exp0 = torch.zeros(8, 8, dtype=torch.bool); exp0[0:2, 0:2] = True; exp0[0:4, 0:4] = True
# token (0,0): block1 window [0:4]^2, block2 shifted window [6:8]+[0:2] region rows{0,1} cols{0,1} -> those depend on [0:4]^2
out0 = dm0[~exp0].max().item()
b = batch_probe(N)
det = determinism(N)
assert outside < 1e-6 and out0 < 1e-6 and inside_min > 1e-4
report(name=N, verdict="correct", dep_outside_window_regions_tok63=outside, dep_outside_tok0=out0, dep_inside_min=inside_min, batch_diff=b, eval_repeat_diff=det)
