import torch
from lib import *
from gpt2ref import hf_gpt2_from
N = "r43_gpt2_reimpl"
FIX = [("""        new_shape = tensor.size()[:-2] + (num_heads, tensor.size(-2), attn_head_size)
        return tensor.reshape(new_shape)""", """        new_shape = tensor.size()[:-1] + (num_heads, attn_head_size)
        tensor = tensor.view(new_shape)
        return tensor.permute(0, 2, 1, 3)""")]
m, a, kw = build(N)
ref = hf_gpt2_from(m)
with torch.no_grad():
    hf = maxdiff(m(*a)[0], ref(input_ids=a[0]).logits)
c = causal_probe(N, vocab=64)
tw, twr = twin_diff(N, FIX)
assert c > 1e-2
report(name=N, verdict="buggy", harm="causal", fix=FIX, causal_maxdiff=c, hf_gpt2_ref_diff=hf, fixed_twin_maxdiff=tw, fixed_twin_rel=twr,
       note="(B,T,C) viewed straight to (B,H,T,D): each 'time step' row mixes features of several real tokens, so the causal mask no longer lines up with token order")
