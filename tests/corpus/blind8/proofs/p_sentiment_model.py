import torch
from common import *

N = "sentiment_model"
a, k = default(N)
tok, kpm = a
base = run(N)
alone = max(md(base[b], run(N, [tok[b:b + 1].clone(), kpm[b:b + 1].clone()])[0]) for b in range(3))
trim = max(md(base[b], run(N, [tok[b:b + 1, :l].clone(), kpm[b:b + 1, :l].clone()])[0]) for b, l in [(0, 5), (2, 2)])
a2 = clone(a); a2[0][kpm] = 33
pad = md(base, run(N, a2))
report(N, max(alone, trim, pad) < 1e-5, batch=alone, trim=trim, pad_content=pad)
