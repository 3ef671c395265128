import torch
from common import *

N = "translation_model"
caus = causal_effect(N, tok_idx=1, vocab=(1, 38))
a, k = default(N)
src, tgt = a
base = run(N)
trim = md(base[1, :4], run(N, [src[1:, :3].clone(), tgt[1:, :4].clone()])[0])
bat = md(base[0], run(N, [src[:1].clone(), tgt[:1].clone()])[0])
report(N, max(caus, trim, bat) < 1e-5, causal_effect=caus, trim=trim, batch=bat)
