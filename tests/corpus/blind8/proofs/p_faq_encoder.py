import torch
from common import *

N = "faq_encoder"
a, k = default(N)
ids, am = a
base = run(N)
a2 = clone(a); a2[0][0, 4:] = torch.tensor([44, 45, 46, 47])
pad = md(base[0, :4], run(N, a2)[0, :4])
trim = md(base[0, :4], run(N, [ids[:1, :4].clone(), am[:1, :4].clone()])[0])
report(N, pad > 1e-3 and trim > 1e-3, pad_content_effect=pad, trim_effect=trim, added_bias_on_pads=float(torch.log(torch.tensor(1e-2))))
