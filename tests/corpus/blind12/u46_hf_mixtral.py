"""Batched next-token scoring with a (tiny, randomly initialised) Mixtral MoE model.

Prompts are left padded so that every prompt's last token sits in the last column; position
ids are derived from the attention mask so each prompt starts at position 0, as `generate`
does. The scorer returns the next-token log-probabilities of every prompt.
"""
import torch
import torch.nn as nn
from transformers import MixtralConfig, MixtralForCausalLM


class NextTokenScorer(nn.Module):
    def __init__(self, lm):
        super().__init__()
        self.lm = lm

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids)
        return torch.log_softmax(out.logits[:, -1], dim=-1)


def build():
    torch.manual_seed(46)
    config = MixtralConfig(
        vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2,
        max_position_embeddings=64, pad_token_id=0, bos_token_id=1, eos_token_id=2)
    model = NextTokenScorer(MixtralForCausalLM(config)).eval()
    lengths = torch.tensor([10, 6, 3])
    attention_mask = (torch.arange(10)[None] >= (10 - lengths)[:, None]).long()
    input_ids = torch.randint(3, 64, (3, 10)).masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
