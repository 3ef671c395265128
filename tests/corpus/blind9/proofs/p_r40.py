import torch
from lib import *
from transformers import GPTJConfig, GPTJForCausalLM
N = "r40_gptj_style"
FIX = [("    sin = torch.cat((sin, sin), dim=-1)[:, :, None, :]\n    cos = torch.cat((cos, cos), dim=-1)[:, :, None, :]",
        "    sin = torch.repeat_interleave(sin[:, :, None, :], 2, 3)\n    cos = torch.repeat_interleave(cos[:, :, None, :], 2, 3)")]
tw, twr = twin_diff(N, FIX)
shift = lambda m_, a_, kw_: (a_, {"position_ids": torch.arange(10)[None] + 7})
sh = maxdiff(run(N), run(N, shift))
shf = maxdiff(run_fixed(N, FIX), run_fixed(N, FIX, shift))
fm = load_patched(N, FIX).build()
ref = GPTJForCausalLM(GPTJConfig(bos_token_id=0, eos_token_id=0, vocab_size=64, n_embd=32, n_head=4, n_layer=2, n_positions=64, rotary_dim=8, attn_implementation="eager")).eval()
sd = {("transformer." + k.replace(".fc_", ".mlp.fc_") if not k.startswith("lm_head") else k): v for k, v in fm[0].state_dict().items()}
missing, unexpected = ref.load_state_dict(sd, strict=False)
missing = [k for k in missing if "bias" not in k or "ln" in k or "fc" in k]
with torch.no_grad():
    hf_fixed = maxdiff(fm[0](*fm[1]), ref(input_ids=fm[1][0]).logits)
    hf_bug = maxdiff(run(N), ref(input_ids=fm[1][0]).logits)
c = causal_probe(N, vocab=64)
assert tw > 1e-2 and sh > 1e-3 and shf < 1e-4 and not missing and hf_fixed < 1e-4
report(name=N, verdict="buggy", harm="axis", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, position_offset_effect_buggy=sh, position_offset_effect_fixed=shf,
       hf_gptj_vs_fixed=hf_fixed, hf_gptj_vs_buggy=hf_bug, hf_missing=missing, causal_maxdiff=c,
       note="sin/cos laid out half-split (cat) while rotate_every_two pairs adjacent dims: not a rotation, scores depend on absolute position")
