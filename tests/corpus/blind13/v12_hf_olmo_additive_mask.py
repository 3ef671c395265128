"""Batched next-token scoring with a tiny OLMo (transformers, random weights).

Ported from an older code base whose attention layers took the additive mask directly
(0 for tokens to keep, a large negative number for padding).
"""
import torch
import torch.nn as nn
from transformers import OlmoConfig, OlmoForCausalLM


class OlmoScorer(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = OlmoConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         pad_token_id=0, bos_token_id=1, eos_token_id=2)
        cfg._attn_implementation = "sdpa"
        self.lm = OlmoForCausalLM(cfg)

    def forward(self, input_ids, attention_mask):
        extended = (1.0 - attention_mask.float()) * torch.finfo(torch.float32).min
        logits = self.lm(input_ids=input_ids, attention_mask=extended).logits
        return logits.log_softmax(-1)


def build():
    torch.manual_seed(0)
    model = OlmoScorer().eval()
    ids = torch.randint(3, 64, (3, 9))
    mask = torch.ones(3, 9, dtype=torch.long)
    mask[1, :3] = 0                 # left padding
    mask[2, :5] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
