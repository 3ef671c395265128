import torch
from lib import *
N = "r91_token_drop_vit"
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
m.train()
with torch.no_grad():
    t1, t2 = m(*a), m(*a)
train_differs = maxdiff(t1, t2)
assert det == 0 and b < 1e-5 and train_differs > 1e-3
report(name=N, verdict="correct", eval_repeat_diff=det, batch_diff=b, train_mode_two_pass_diff=train_differs,
       note="patch dropout is random only in training mode")
