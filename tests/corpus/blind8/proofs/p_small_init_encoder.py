import torch
import torch.nn.functional as F
from common import *

N = "small_init_encoder"
m, a, _ = build(N)
ids, pad = a
ln = m.blocks[0].ln1
x = m.tok(ids) + m.pos(torch.arange(ids.size(1)))
ref = F.layer_norm(x, (32,), ln.weight, ln.bias, ln.eps)
d_emb = md(ln(x), ref)
rel = ((ln(x) - ref).norm() / ref.norm()).item()
xs = torch.randn(4, 32) * 1e-3
d_small = md(ln(xs), F.layer_norm(xs, (32,), ln.weight, ln.bias, ln.eps))
def swap(model):
    mods = [(b, n) for b in model.blocks for n in ("ln1", "ln2")] + [(model, "ln_f")]
    for parent, name in mods:
        old = getattr(parent, name)
        new = torch.nn.LayerNorm(32, eps=old.eps)
        new.weight.copy_(old.weight); new.bias.copy_(old.bias)
        setattr(parent, name, new)
real = ~pad
model_diff = md(run(N)[real], run(N, model_fn=swap)[real])
report(N, d_emb > 1e-3 and d_small > 1e-2, diff_vs_F_layer_norm_on_embeddings=d_emb, relative=rel,
       diff_vs_F_layer_norm_std1e_3_input=d_small, model_diff_vs_nn_LayerNorm=model_diff)
