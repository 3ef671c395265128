from lib import *
from clipprobe import clip_probes
N = "r21_contrastive_model"
r = clip_probes(N)
o = run(N, pick=lambda o: o)
tt = maxdiff(o[1], o[0].t())
det = determinism(N)
assert r["image1_perturb_other_rows"] < 1e-5 and r["text2_perturb_other_cols"] < 1e-5 and r["after_eot_perturb"] < 1e-5 and r["image1_perturb_own_row"] > 1e-3 and det == 0
report(name=N, verdict="correct", transpose_consistency=tt, eval_repeat_diff=det, **r,
       note="(B,B) logit table couples the batch by design; entry (i,j) depends only on image i and text j")
