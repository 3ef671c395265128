from lib import *
N = "r36_wake_word_model"
FIX = [("self.bn1 = nn.BatchNorm1d(d_model, track_running_stats=False)", "self.bn1 = nn.BatchNorm1d(d_model)")]
b = batch_probe(N)
fb = batch_probe(fixed_name(N, FIX))
det = determinism(N)
assert b > 1e-2 and fb < 1e-5
report(name=N, verdict="buggy", harm="batch", fix=FIX, batch_diff=b, fixed_batch_diff=fb, eval_repeat_diff=det,
       note="track_running_stats=False makes BatchNorm normalise with the current batch's statistics even in eval")
