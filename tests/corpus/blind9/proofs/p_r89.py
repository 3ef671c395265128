from lib import *
from detrprobe import detr_probes
N = "r89_set_detector"
pad, crop = detr_probes(N)
b = batch_probe(N)
det = determinism(N)
assert max(pad, b, det, crop) < 1e-5
report(name=N, verdict="correct", padded_pixel_perturb_logit_diff=pad, batch_diff=b, eval_repeat_diff=det, cropped_vs_padded_logit_diff=crop,
       note="padded pixels perturbed: no effect; sample cropped to its valid region gives the same detections")
