import torch
from lib import *
from gpt2ref import hf_gpt2_from
N = "r57_gpt2_scratch"
m, a, kw = build(N)
ref = hf_gpt2_from(m)
with torch.no_grad():
    hf = maxdiff(m(*a)[0], ref(input_ids=a[0]).logits)
c = causal_probe(N, vocab=64)
b = batch_probe(N)
det = determinism(N)
assert max(hf, c, b, det) < 1e-4
report(name=N, verdict="correct", hf_gpt2_ref_diff=hf, causal_maxdiff=c, batch_diff=b, eval_repeat_diff=det)
