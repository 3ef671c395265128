import torch
from lib import *
N = "r84_hub_dual_encoder"
m, a, kw = build(N)
am = kw["attention_mask"]
L = lambda o: o["logits_per_image"]
base = run(N, pick=L)
def pimg(m_, a_, kw_):
    x = kw_["pixel_values"].clone(); x[1] += 3 * torch.randn_like(x[1]); kw_["pixel_values"] = x; return a_, kw_
def ptxt(m_, a_, kw_):
    x = kw_["input_ids"].clone(); x[2, :3] = torch.tensor([5, 6, 7]); kw_["input_ids"] = x; return a_, kw_
def ppad(m_, a_, kw_):
    kw_["input_ids"] = perturb_like(kw_["input_ids"], am == 0, vocab=58); return a_, kw_
oi = run(N, pimg, pick=L); ot = run(N, ptxt, pick=L); op = run(N, ppad, pick=L)
img_other_rows = maxdiff(base[[0, 2]], oi[[0, 2]]); img_row = maxdiff(base[1], oi[1])
txt_other_cols = maxdiff(base[:, :2], ot[:, :2]); txt_col = maxdiff(base[:, 2], ot[:, 2])
pad = maxdiff(base, op)
o = run(N, pick=lambda o: o)
tt = maxdiff(o["logits_per_text"], o["logits_per_image"].t())
det = determinism(N, pick=L)
assert max(img_other_rows, txt_other_cols, pad, tt, det) < 1e-5 and img_row > 1e-3 and txt_col > 1e-3
report(name=N, verdict="correct", image_perturb_other_rows_diff=img_other_rows, image_perturb_own_row_change=img_row,
       text_perturb_other_cols_diff=txt_other_cols, text_perturb_own_col_change=txt_col, text_pad_perturb_diff=pad, transpose_consistency=tt, eval_repeat_diff=det)
