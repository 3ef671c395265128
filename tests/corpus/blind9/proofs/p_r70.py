from lib import *
from perprobe import perceiver_probes
N = "r70_multimodal_perceiver"
FIX = [("x = cross_attn(x, context=data) + x", "x = cross_attn(x, context=data, mask=mask) + x")]
p, tr = perceiver_probes(N)
fp, ftr = perceiver_probes(fixed_name(N, FIX))
assert p > 1e-2 and max(fp, ftr) < 1e-5
report(name=N, verdict="buggy", harm="padding", fix=FIX, pad_perturb_diff=p, truncation_diff=tr, fixed_pad_perturb=fp, fixed_truncation=ftr,
       note="input mask accepted by forward but not passed to the latent cross-attention: padded inputs are read by the latents")
