import torch
from lib import *
N = "r58_partial_rotary_lm"
FIX = [("key = torch.cat((key_pass, key), dim=-1)", "key = torch.cat((key, key_pass), dim=-1)")]
tw, twr = twin_diff(N, FIX)
shift = lambda m_, a_, kw_: (a_, {"position_ids": torch.arange(11)[None].expand(2, -1) + 9})
sh = maxdiff(run(N), run(N, shift))
shf = maxdiff(run_fixed(N, FIX), run_fixed(N, FIX, shift))
c = causal_probe(N, vocab=64)
assert tw > 1e-2 and sh > 1e-3 and shf < 1e-4
report(name=N, verdict="buggy", harm="axis", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, position_offset_effect_buggy=sh, position_offset_effect_fixed=shf, causal_maxdiff=c,
       note="key re-assembled as [pass, rot] while query is [rot, pass]: rotated query dims meet unrotated key dims, breaking relative-position invariance")
