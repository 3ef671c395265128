"""Scoring prompts with a tiny Phi-3 (transformers, random weights).

The data pipeline also serves packed batches, so the wrapper always hands the model a 4-D
boolean mask (True = may attend) built from the per-token attention mask.
"""
import torch
import torch.nn as nn
from transformers import Phi3Config, Phi3ForCausalLM


class Phi3Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = Phi3Config(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         pad_token_id=0, bos_token_id=1, eos_token_id=2)
        cfg._attn_implementation = "sdpa"
        self.lm = Phi3ForCausalLM(cfg)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        keep = attention_mask.bool()[:, None, None, :].expand(B, 1, T, T)
        return self.lm(input_ids=input_ids, attention_mask=keep).logits


def build():
    torch.manual_seed(0)
    model = Phi3Scorer().eval()
    ids = torch.randint(3, 64, (3, 10))
    mask = torch.ones(3, 10, dtype=torch.long)
    mask[1, 7:] = 0
    mask[2, 5:] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
