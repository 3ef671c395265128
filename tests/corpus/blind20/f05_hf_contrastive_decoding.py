"""Contrastive decoding scores (Li et al., ACL 2023; CD-beta form of O'Brien & Lewis, 2023) with
two Granite causal LMs from transformers: a larger "expert" and a small "amateur" sharing a vocabulary.

For every prefix the next-token score is (1 + beta) * log p_expert - beta * log p_amateur,
restricted to the adaptive plausibility set {w : p_expert(w) >= alpha * max_w p_expert(w)};
tokens outside the set get the dtype's lowest value so that greedy / beam search never picks them.
Prompts are right padded; both models receive the same attention mask.
"""
import math

import torch
import torch.nn as nn
from transformers import GraniteConfig, GraniteForCausalLM


class ContrastiveScorer(nn.Module):
    def __init__(self, expert_cfg, amateur_cfg, alpha=0.1, beta=0.5):
        super().__init__()
        assert expert_cfg.vocab_size == amateur_cfg.vocab_size
        self.expert = GraniteForCausalLM(expert_cfg)
        self.amateur = GraniteForCausalLM(amateur_cfg)
        self.log_alpha, self.beta = math.log(alpha), beta

    def forward(self, input_ids, attention_mask):
        lp_exp = self.expert(input_ids=input_ids, attention_mask=attention_mask).logits.float().log_softmax(-1)
        lp_ama = self.amateur(input_ids=input_ids, attention_mask=attention_mask).logits.float().log_softmax(-1)
        cutoff = lp_exp.max(dim=-1, keepdim=True).values + self.log_alpha
        scores = (1 + self.beta) * lp_exp - self.beta * lp_ama
        return scores.masked_fill(lp_exp < cutoff, torch.finfo(scores.dtype).min)

    @torch.no_grad()
    def next_token(self, input_ids, attention_mask):
        last = attention_mask.sum(dim=1) - 1
        scores = self(input_ids, attention_mask)
        return scores[torch.arange(input_ids.size(0)), last].argmax(dim=-1)


def granite_config(layers, hidden):
    return GraniteConfig(vocab_size=128, hidden_size=hidden, intermediate_size=2 * hidden,
                         num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=64, pad_token_id=0, bos_token_id=1, eos_token_id=2,
                         embedding_multiplier=6.0, residual_multiplier=0.22, logits_scaling=4.0,
                         attention_multiplier=(hidden // 4) ** -0.5)


def build():
    torch.manual_seed(0)
    model = ContrastiveScorer(granite_config(2, 48), granite_config(1, 32)).eval()
    input_ids = torch.randint(3, 128, (3, 12))
    input_ids[:, 0] = 1
    attention_mask = torch.ones_like(input_ids)
    attention_mask[1, 8:], attention_mask[2, 5:] = 0, 0
    input_ids[attention_mask == 0] = 0
    return model, (input_ids, attention_mask)
