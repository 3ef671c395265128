import torch
from common import *

N = "seq2seq_model"
a, k = default(N)
src, sl, tgt = a
base = run(N)
caus = causal_effect(N, tok_idx=2, vocab=(1, 42))
a2 = clone(a); a2[0][1, 4:] = torch.tensor([30, 31, 32])
pad = md(base[1], run(N, a2)[1])
trim = md(base[1], run(N, [src[1:, :4].clone(), sl[1:].clone(), tgt[1:].clone()])[0])
bat = md(base[0], run(N, [src[:1].clone(), sl[:1].clone(), tgt[:1].clone()])[0])
report(N, max(caus, pad, trim, bat) < 1e-5, causal_effect=caus, src_pad_content=pad, src_trim=trim, batch=bat)
