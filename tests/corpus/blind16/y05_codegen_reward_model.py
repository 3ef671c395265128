"""Scalar reward model on a CodeGen decoder for ranking code completions.

Sequences are left-padded so that every completion ends at the last column; the reward is
read from the final hidden state there. Position ids restart at 0 on the first real token.
"""
import torch
import torch.nn as nn
from transformers import CodeGenConfig, CodeGenModel


class CodeRewardModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.transformer = CodeGenModel(config)
        self.v_head = nn.Linear(config.n_embd, 1, bias=False)

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        hidden = self.transformer(input_ids=input_ids, attention_mask=attention_mask,
                                  position_ids=position_ids).last_hidden_state
        last = hidden[:, -1]
        return self.v_head(last).squeeze(-1)


def build():
    torch.manual_seed(0)
    config = CodeGenConfig(vocab_size=100, n_embd=32, n_layer=2, n_head=4, n_positions=64, rotary_dim=4,
                           bos_token_id=1, eos_token_id=2, pad_token_id=0)
    model = CodeRewardModel(config).eval()
    pads = torch.tensor([0, 4, 7])
    attention_mask = (torch.arange(16)[None, :] >= pads[:, None]).long()
    input_ids = torch.randint(3, 100, (3, 16)).masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
