import torch, torch.nn.functional as F
from lib import *
N = "r76_sound_event_tagger"
FIX = [("query_states = self.q_proj(hidden_states) * self.scaling", "query_states = self.q_proj(hidden_states)")]
m, a, kw = build(N)
at = m.layers[0].self_attn
x = torch.randn(3, 16, 32) * 3
with torch.no_grad():
    f = lambda t: t.view(3, 16, 4, 8).transpose(1, 2)
    r = at.out_proj(F.scaled_dot_product_attention(f(at.q_proj(x)), f(at.k_proj(x)), f(at.v_proj(x))).transpose(1, 2).reshape(3, 16, 32))
    ref = maxdiff(at(x), r)
tw, twr = twin_diff(N, FIX)
fm = load_patched(N, FIX).build()[0]
fat = fm.layers[0].self_attn
with torch.no_grad():
    rf = fat.out_proj(F.scaled_dot_product_attention(f(fat.q_proj(x)), f(fat.k_proj(x)), f(fat.v_proj(x))).transpose(1, 2).reshape(3, 16, 32))
    fixed_ref = maxdiff(fat(x), rf)
assert fixed_ref < 1e-5
b = batch_probe(N)
assert ref > 1e-2
report(name=N, verdict="buggy", harm="numeric", fix=FIX, sdpa_ref_diff=ref, fixed_sdpa_ref_diff=fixed_ref, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, batch_diff=b,
       note="q pre-multiplied by head_dim**-0.5 and SDPA applies its default 1/sqrt(head_dim) again: effective scale 1/head_dim")
