"""Reward model on a tiny StableLM (transformers, random weights, partial rotary).

Right-padded responses; the reward is read from the hidden state of each sequence's last real
token (index attention_mask.sum(-1) - 1).
"""
import torch
import torch.nn as nn
from transformers import StableLmConfig, StableLmModel


class StableLmReward(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = StableLmConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                             num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                             partial_rotary_factor=0.5, pad_token_id=0, bos_token_id=1, eos_token_id=2)
        cfg._attn_implementation = "sdpa"
        self.backbone = StableLmModel(cfg)
        self.score = nn.Linear(32, 1)

    def forward(self, input_ids, attention_mask):
        h = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        last = attention_mask.sum(-1) - 1
        return self.score(h[torch.arange(h.size(0)), last]).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = StableLmReward().eval()
    ids = torch.randint(3, 64, (3, 10))
    mask = torch.ones(3, 10, dtype=torch.long)
    mask[0, 7:] = 0
    mask[1, 4:] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
