import torch
from common import *

N = "text_classifier"
a, k = default(N)
tok, lengths = a
base = run(N)
# trim: sample alone at its true length
trim = max(md(base[b], run(N, [tok[b:b + 1, :L].clone(), lengths[b:b + 1].clone()])[0])
           for b, L in enumerate(lengths.tolist()))
# pad content (lengths kept)
a2 = clone(a); a2[0][1, 4:] = torch.tensor([70, 71, 72]); a2[0][2, 2:] = 60
pad = md(base, run(N, a2))
report(N, pad > 1e-3 and trim > 1e-3, pad_content_effect=pad, trim_effect=trim)
