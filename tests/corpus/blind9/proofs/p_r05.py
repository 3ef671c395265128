import torch
from lib import *
from hfllama import hf_llama_from
N = "r05_decoder_lm"
m, a, kw = build(N)
am = kw["attention_mask"]
ref = hf_llama_from(m, m.model.layers[0].self_attn.config)
with torch.no_grad():
    y = m(*a, **kw)
    r = ref(input_ids=a[0], attention_mask=am, position_ids=kw["position_ids"]).logits
hf = maxdiff(y[am.bool()], r[am.bool()])
c = causal_probe(N, vocab=64, keep=(am == 1))
p = pad_probe(N, 0, am == 0, vocab=64, keep=(am == 1))
def edit(m_, a_, kw_):
    return [a_[0][1:, 3:]], {"attention_mask": am[1:, 3:], "position_ids": kw_["position_ids"][1:, 3:]}
tr = maxdiff(run(N)[1:, 3:], run(N, edit))
det = determinism(N)
assert max(hf, c, p, tr, det) < 1e-4
report(name=N, verdict="correct", hf_llama_ref_diff=hf, causal_maxdiff=c, left_pad_perturb_diff=p, unpadded_vs_padded_diff=tr, eval_repeat_diff=det)
