from lib import *
from detrprobe import detr_probes
N = "r12_object_detector"
FIX = [("mask = F.interpolate(m[None].float(), size=(w, h)).to(torch.bool)[0]", "mask = F.interpolate(m[None].float(), size=(h, w)).to(torch.bool)[0]")]
pad, crop = detr_probes(N)
fpad, fcrop = detr_probes(fixed_name(N, FIX))
tw, twr = twin_diff(N, FIX, pick=lambda o: o["pred_logits"])
assert pad > 1e-2 and fpad < 1e-5
report(name=N, verdict="buggy", harm="padding", fix=FIX, padded_pixel_perturb_logit_diff=pad, cropped_vs_padded=crop, fixed_padded_pixel_perturb=fpad, fixed_cropped_vs_padded=fcrop, fixed_twin_maxdiff=tw,
       note="pixel mask resized to (w, h) on a (h, w) feature map: after flatten, the key_padding_mask marks the wrong cells, so padded cells are attended and real ones hidden")
