import torch
from lib import *
N = "r31_cached_generator"
mod = load(N)
from gpt2ref import prompt_and_next
model, prompt, nxt = prompt_and_next(mod)
with torch.no_grad():
    full = model(torch.cat([prompt, nxt], 1))[0][:, 6:]
cached = run(N)
m, a, kw = build(N)
assert torch.equal(a[0], nxt)
ref = maxdiff(cached, full)
c = causal_probe(N, vocab=64)
det = determinism(N)
assert max(ref, c, det) < 1e-4
report(name=N, verdict="correct", cached_vs_full_forward_diff=ref, causal_maxdiff_within_chunk=c, eval_repeat_diff=det)
