import math, torch
from lib import *
from transformers import T5Config, T5EncoderModel
N = "r13_relpos_encoder"
m, a, kw = build(N)
am = kw["attention_mask"]
p = pad_probe(N, 0, am == 0, vocab=64, keep=(am == 1))
tr = max(trunc_probe(N, 0, 8), trunc_probe(N, 2, 5))
b = batch_probe(N)
det = determinism(N)
ref = T5EncoderModel(T5Config(vocab_size=64, d_model=32, d_kv=8, d_ff=64, num_layers=2, num_heads=4, relative_attention_num_buckets=16,
                               relative_attention_max_distance=32, feed_forward_proj="relu", attn_implementation="eager")).eval()
sd = {}
for k, v in m.state_dict().items():
    if k.startswith("embed_tokens"):
        sd["shared.weight"] = v; sd["encoder.embed_tokens.weight"] = v; continue
    if k.startswith("final_layer_norm"):
        sd["encoder." + k] = v; continue
    i = k.split(".")[1]
    k2 = k.replace("block.%s.SelfAttention." % i, "encoder.block.%s.layer.0.SelfAttention." % i)
    k2 = k2.replace("block.%s.ln_attn." % i, "encoder.block.%s.layer.0.layer_norm." % i)
    k2 = k2.replace("block.%s.wi." % i, "encoder.block.%s.layer.1.DenseReluDense.wi." % i)
    k2 = k2.replace("block.%s.wo." % i, "encoder.block.%s.layer.1.DenseReluDense.wo." % i)
    k2 = k2.replace("block.%s.ln_ff." % i, "encoder.block.%s.layer.1.layer_norm." % i)
    if k2.endswith("SelfAttention.q.weight"):
        v = v / math.sqrt(8)
    sd[k2] = v
missing, unexpected = ref.load_state_dict(sd, strict=False)
assert not missing and not unexpected, (missing, unexpected)
with torch.no_grad():
    r = ref(input_ids=a[0], attention_mask=am).last_hidden_state
hf = maxdiff(run(N)[am.bool()], r[am.bool()])
assert max(p, tr, b, det, hf) < 1e-4
report(name=N, verdict="correct", pad_perturb_diff=p, truncation_diff=tr, batch_diff=b, eval_repeat_diff=det, hf_t5_encoder_ref_diff_with_q_prescaled=hf,
       note="T5-style relative buckets, but with explicit 1/sqrt(d_kv) score scaling; equals HF T5 encoder once q is pre-divided by sqrt(d_kv)")
