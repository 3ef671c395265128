import torch
from common import *

N = "annotated_encoder"
a, k = default(N)
src, src_mask = a
real = src_mask[:, 0]
base = run(N)
a2 = clone(a); a2[0][1, 4:] = torch.tensor([20, 21]); a2[0][2, 3:] = torch.tensor([25, 26, 27])
pad = md(base[real], run(N, a2)[real])
trim = md(base[2, :3], run(N, [src[2:, :3].clone(), src_mask[2:, :, :3].clone()])[0])
report(N, pad > 1e-3 and trim > 1e-3, pad_content_effect=pad, trim_effect=trim)
