import torch
from lib import *
from winprobe import window_dep
from transformers import MistralConfig as HC, MistralForCausalLM as HM
N = "r25_window_lm"
m, a, kw = build(N)
c = causal_probe(N, vocab=64)
dep = window_dep(N)
i = torch.arange(12)[:, None]; j = torch.arange(12)[None, :]
# two layers of window 4: output i can depend on inputs i-6..i
reach = (j <= i) & (j >= i - 6)
outside = dep[~reach].max().item()
inside_min = dep[reach].min().item()
mod = load(N)
mk = m.model._make_sliding_window_causal_mask(1, 12, torch.float32, 4)[0, 0]
mask_ok = bool(torch.equal(torch.isfinite(mk), (j <= i) & (j > i - 4)))
cfg = m.model.layers[0].self_attn.config
ref = HM(HC(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
            max_position_embeddings=64, rms_norm_eps=1e-6, rope_theta=10000.0, sliding_window=4, attn_implementation="eager", tie_word_embeddings=False)).eval()
missing, unexpected = ref.load_state_dict({k: v for k, v in m.state_dict().items() if "inv_freq" not in k}, strict=False)
with torch.no_grad():
    hf = maxdiff(m(*a), ref(input_ids=a[0]).logits)
det = determinism(N)
assert c < 1e-6 and outside < 1e-6 and inside_min > 1e-5 and mask_ok and det == 0
report(name=N, verdict="correct", causal_maxdiff=c, dep_outside_two_layer_window=outside, dep_inside_min=inside_min, mask_is_causal_window4=mask_ok,
       hf_mistral_ref_diff=hf, hf_missing=[k for k in missing if "inv_freq" not in k], eval_repeat_diff=det)
am = torch.ones(2, 12, dtype=torch.long); am[1, :3] = 0
pos = (am.cumsum(-1) - 1).clamp(min=0)
def lp(m_, a_, kw_):
    return [a_[0].masked_fill(am == 0, 0)], {"attention_mask": am, "position_ids": pos}
def lp2(m_, a_, kw_):
    return [a_[0].masked_fill(am == 0, 17)], {"attention_mask": am, "position_ids": pos}
padp = maxdiff(run(N, lp)[am.bool()], run(N, lp2)[am.bool()])
unp = maxdiff(run(N, lp)[1:, 3:], run(N, lambda m_, a_, kw_: ([a_[0][1:, 3:]], {"position_ids": pos[1:, 3:]})))
nan = bool(torch.isnan(run(N, lp)).any())
assert padp < 1e-5 and unp < 1e-4 and not nan
report(name=N + "_padding", left_pad_content_diff=padp, unpadded_vs_leftpadded=unp, any_nan=nan)
