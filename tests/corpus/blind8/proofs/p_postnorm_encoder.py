import torch
from common import *

N = "postnorm_encoder"
m, a, _ = build(N)
ln = m.layers[0].norm1
x = torch.randn(2, 6, 16) * 2 + 1
ref = torch.nn.functional.layer_norm(x, (16,), ln.a_2, ln.b_2, ln.eps)
d = md(ln(x), ref)
ratio = (ref.std(-1, unbiased=False) / ln(x).std(-1, unbiased=False)).mean().item()
# whole model vs. the same model with nn.LayerNorm swapped in
def swap(model):
    for layer in model.layers:
        for name in ("norm1", "norm2"):
            old = getattr(layer, name)
            new = torch.nn.LayerNorm(16, eps=old.eps)
            new.weight.copy_(old.a_2); new.bias.copy_(old.b_2)
            setattr(layer, name, new)
model_diff = md(run(N), run(N, model_fn=swap))
report(N, d > 1e-3 and model_diff > 1e-3, diff_vs_F_layer_norm=d, output_std_ratio_ref_over_custom=ratio,
       model_diff_vs_nn_LayerNorm=model_diff)
