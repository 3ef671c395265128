import torch
from common import *

N = "topic_classifier"
m, a, _ = build(N)
rep = md(m(*a), m(*a))
seeds = md(seeded_run(N, 1), seeded_run(N, 2))
m.train()
train_diff = md(m(*a), m(*a))
base = run(N)
tok, kpm = a
trim = md(base[0], run(N, [tok[:1, :4].clone(), kpm[:1, :4].clone()])[0])
report(N, max(rep, seeds, trim) < 1e-6 and train_diff > 1e-3, eval_pass_diff=rep, seed_diff=seeds,
       train_mode_pass_diff=train_diff, trim=trim)
