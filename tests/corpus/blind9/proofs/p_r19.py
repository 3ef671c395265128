import torch
from lib import *
from transformers import GPTNeoXConfig as HC, GPTNeoXForCausalLM as HM
N = "r19_pythia_like"
m, a, kw = build(N)
ref = HM(HC(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
            rotary_pct=0.25, max_position_embeddings=64, attn_implementation="eager", hidden_act="gelu")).eval()
sd = {k.replace("embed_out.", "lm_head."): v for k, v in m.state_dict().items()}
missing, unexpected = ref.load_state_dict(sd, strict=False)
assert not missing and not unexpected, (missing, unexpected)
with torch.no_grad():
    hf = maxdiff(m(*a), ref(input_ids=a[0]).logits)
c = causal_probe(N, vocab=64)
sh = maxdiff(run(N), run(N, lambda m_, a_, kw_: (a_, {"position_ids": torch.arange(11)[None].expand(2, -1) + 9})))
det = determinism(N)
b = batch_probe(N)
assert max(hf, c, sh, det, b) < 1e-4
report(name=N, verdict="correct", hf_gpt_neox_ref_diff=hf, causal_maxdiff=c, position_offset_invariance=sh, eval_repeat_diff=det, batch_diff=b)
