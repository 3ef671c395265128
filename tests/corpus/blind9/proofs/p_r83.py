from lib import *
from clipprobe import clip_probes
N = "r83_image_text_matcher"
FIX = [("image_features = image_features / image_features.norm(dim=0, keepdim=True)", "image_features = image_features / image_features.norm(dim=1, keepdim=True)")]
r = clip_probes(N)
rf = clip_probes(fixed_name(N, FIX))
assert r["image1_perturb_other_rows"] > 1e-2 and rf["image1_perturb_other_rows"] < 1e-5
report(name=N, verdict="buggy", harm="batch", fix=FIX, fixed_image1_perturb_other_rows=rf["image1_perturb_other_rows"], **r,
       note="image embeddings normalised over the batch axis: every image's logit row changes when another image in the batch changes")
