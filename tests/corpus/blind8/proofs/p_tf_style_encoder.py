import torch
from common import *

N = "tf_style_encoder"
a, k = default(N)
x = a[0]
base = run(N)
alone = md(base[0], run(N, [x[:1].clone()])[0])
a2 = clone(a); a2[0][2, :4] = torch.tensor([1, 2, 3, 4])
cross = md(base[0], run(N, a2)[0])
report(N, alone > 1e-3 and cross > 1e-3 and nan_frac(base) == 0, alone_vs_batched=alone, other_sample_change_effect=cross, nan_frac=nan_frac(base))
