import torch
from lib import *
from transformers import BloomConfig as HC, BloomForCausalLM as HM
N = "r15_multilingual_lm"
m, a, kw = build(N)
am = kw["attention_mask"]
ref = HM(HC(vocab_size=72, hidden_size=32, n_layer=2, n_head=4, attn_implementation="eager")).eval()
missing, unexpected = ref.load_state_dict(m.state_dict(), strict=False)
assert not [k for k in missing if "lm_head" not in k] and not unexpected, (missing, unexpected)
with torch.no_grad():
    r = ref(input_ids=a[0], attention_mask=am).logits
    y = m(*a, **kw)
hf = maxdiff(y[am.bool()], r[am.bool()])
c = causal_probe(N, vocab=72, keep=(am == 1))
p = pad_probe(N, 0, am == 0, vocab=72, keep=(am == 1))
tr = maxdiff(run(N)[1:, 3:], run(N, lambda m_, a_, kw_: ([a_[0][1:, 3:]], {"attention_mask": am[1:, 3:]})))
det = determinism(N)
assert max(hf, c, p, tr, det) < 1e-4
report(name=N, verdict="correct", hf_bloom_ref_diff=hf, causal_maxdiff=c, left_pad_perturb_diff=p, unpadded_vs_leftpadded_diff=tr, eval_repeat_diff=det)
