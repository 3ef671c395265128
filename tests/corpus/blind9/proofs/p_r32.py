import torch
from lib import *
N = "r32_incremental_decoder"
FIX = [("causal_mask = self.bias[:, :, key_length - query_length + 1 : key_length + 1, :key_length]", "causal_mask = self.bias[:, :, key_length - query_length : key_length, :key_length]")]
mod = load(N)
from gpt2ref import prompt_and_next
model, prompt, nxt = prompt_and_next(mod)
fm, fp, fn = prompt_and_next(load_patched(N, FIX))
with torch.no_grad():
    full_fixed = fm(torch.cat([fp, fn], 1))[0][:, 6:]
cached = run(N)
ref = maxdiff(cached, full_fixed)
c = causal_probe(N, vocab=64)
tw, twr = twin_diff(N, FIX)
assert c > 1e-2
report(name=N, verdict="buggy", harm="causal", fix=FIX, causal_maxdiff_within_chunk=c, cached_vs_correct_full_forward=ref, fixed_twin_maxdiff=tw, fixed_twin_rel=twr,
       note="mask rows offset by one: new token i also sees new token i+1")
