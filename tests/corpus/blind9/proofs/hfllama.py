import torch
from transformers import LlamaConfig, LlamaForCausalLM


def hf_llama_from(m, cfg, **extra):
    hc = LlamaConfig(vocab_size=cfg.vocab_size, hidden_size=cfg.hidden_size, intermediate_size=cfg.intermediate_size,
                     num_hidden_layers=cfg.num_hidden_layers, num_attention_heads=cfg.num_attention_heads,
                     num_key_value_heads=cfg.num_key_value_heads, max_position_embeddings=cfg.max_position_embeddings,
                     rms_norm_eps=cfg.rms_norm_eps, rope_theta=cfg.rope_theta, tie_word_embeddings=False,
                     attn_implementation="eager", **extra)
    ref = LlamaForCausalLM(hc).eval()
    sd = {k: v for k, v in m.state_dict().items() if "inv_freq" not in k}
    missing, unexpected = ref.load_state_dict(sd, strict=False)
    missing = [k for k in missing if "inv_freq" not in k]
    assert not missing and not unexpected, (missing, unexpected)
    return ref
