"""Reward model for RLHF on top of a GPT-J backbone (HF transformers, tiny random config).

The preference batches are right-padded by the collator. A scalar value head reads the final
hidden state of the sequence and returns one reward per conversation.
"""
import torch
import torch.nn as nn
from transformers import GPTJConfig, GPTJModel


class GPTJRewardModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.transformer = GPTJModel(config)
        self.v_head = nn.Sequential(nn.Linear(config.n_embd, config.n_embd), nn.Tanh(), nn.Linear(config.n_embd, 1))
        self.pad_token_id = config.pad_token_id

    def forward(self, input_ids, attention_mask):
        hidden = self.transformer(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        last_hidden = hidden[:, -1, :]
        return self.v_head(last_hidden).squeeze(-1)


def build():
    torch.manual_seed(0)
    config = GPTJConfig(vocab_size=128, n_embd=32, n_layer=2, n_head=4, rotary_dim=8, n_positions=64,
                        bos_token_id=0, eos_token_id=2, pad_token_id=1)
    model = GPTJRewardModel(config).eval()
    ids = torch.randint(3, 128, (3, 14))
    mask = torch.ones(3, 14, dtype=torch.long)
    for b, n in enumerate([14, 9, 6]):
        ids[b, n - 1] = 2
        ids[b, n:] = 1
        mask[b, n:] = 0
    return model, (ids, mask)
