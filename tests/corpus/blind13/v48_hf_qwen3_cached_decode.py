"""Batched generation step-by-step with a tiny Qwen3 (transformers, random weights) and its
KV cache.

Left-padded prompts are prefilled with their attention mask and position_ids counting the
real tokens; the last two tokens are then fed one at a time with past_key_values, the
attention mask extended by one column and the position ids continued per sample.
"""
import torch
import torch.nn as nn
from transformers import DynamicCache, Qwen3Config, Qwen3ForCausalLM


class Qwen3Stepper(nn.Module):
    def __init__(self, n_steps=2):
        super().__init__()
        self.n_steps = n_steps
        cfg = Qwen3Config(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                          num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                          max_position_embeddings=64, pad_token_id=0, bos_token_id=1, eos_token_id=2)
        cfg._attn_implementation = "sdpa"
        self.lm = Qwen3ForCausalLM(cfg)

    def forward(self, input_ids, attention_mask):
        T = input_ids.size(1)
        P = T - self.n_steps
        positions = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        cache = DynamicCache(config=self.lm.config)
        out = self.lm(input_ids=input_ids[:, :P], attention_mask=attention_mask[:, :P],
                      position_ids=positions[:, :P], past_key_values=cache, use_cache=True)
        logits = [out.logits]
        for t in range(P, T):
            out = self.lm(input_ids=input_ids[:, t:t + 1], attention_mask=attention_mask[:, :t + 1],
                          position_ids=positions[:, t:t + 1], past_key_values=out.past_key_values,
                          use_cache=True)
            logits.append(out.logits)
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = Qwen3Stepper().eval()
    ids = torch.randint(3, 64, (3, 9))
    mask = torch.ones(3, 9, dtype=torch.long)
    mask[0, :3] = 0
    mask[2, :1] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
