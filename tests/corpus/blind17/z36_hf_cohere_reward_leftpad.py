"""Value model for PPO on a Cohere-architecture backbone (HF transformers, tiny random config).

Rollouts are left-padded (as for generation), so the last position of every row is the last
real token and the value head can read position -1. Position ids are derived from the
attention mask so that real tokens always start at position 0.
"""
import torch
import torch.nn as nn
from transformers import CohereConfig, CohereModel


class LeftPaddedValueModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.backbone = CohereModel(config)
        self.value_head = nn.Linear(config.hidden_size, 1)

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        out = self.backbone(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids)
        return self.value_head(out.last_hidden_state[:, -1]).squeeze(-1)


def build():
    torch.manual_seed(0)
    config = CohereConfig(vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                          num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=64,
                          pad_token_id=0, bos_token_id=5, eos_token_id=6)
    model = LeftPaddedValueModel(config).eval()
    ids = torch.randint(7, 128, (3, 12))
    mask = torch.ones(3, 12, dtype=torch.long)
    for b, n in enumerate([12, 8, 5]):
        ids[b, : 12 - n] = 0
        mask[b, : 12 - n] = 0
    return model, (ids, mask)
