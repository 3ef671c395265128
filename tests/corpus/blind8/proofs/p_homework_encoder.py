import torch
from common import *

N = "homework_encoder"
m, a, _ = build(N)
assert not m.training
same_model = md(m(*a), m(*a))
rebuilt = md(seeded_run(N, 1), seeded_run(N, 2))
def p0(model):
    for mod in model.modules():
        if type(mod).__name__ == "Dropout" and hasattr(mod, "p") and not isinstance(mod, torch.nn.Dropout):
            mod.p = 0.0
z = md(run(N, model_fn=p0), run(N, model_fn=p0))
report(N, same_model > 1e-3 and rebuilt > 1e-3 and z < 1e-6, eval_pass_diff=same_model, rebuilt_diff_seed_diff=rebuilt, diff_with_p0=z)
