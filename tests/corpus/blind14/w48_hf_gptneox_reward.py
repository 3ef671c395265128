"""Reward model on a GPT-NeoX backbone: a scalar head reads the hidden state of the last real token
of each right-padded sequence (the index is found from the first pad token, as HF's
sequence-classification heads do)."""
import torch
import torch.nn as nn
from transformers import GPTNeoXConfig, GPTNeoXModel


class RewardModel(nn.Module):
    def __init__(self, pad_token_id=0):
        super().__init__()
        self.pad_token_id = pad_token_id
        config = GPTNeoXConfig(
            vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
            max_position_embeddings=64, rotary_pct=0.5, pad_token_id=pad_token_id,
        )
        self.backbone = GPTNeoXModel(config)
        self.v_head = nn.Linear(32, 1, bias=False)

    def forward(self, input_ids):
        attention_mask = input_ids.ne(self.pad_token_id).long()
        hidden = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        seq_end = torch.eq(input_ids, self.pad_token_id).int().argmax(-1) - 1
        seq_end = seq_end % input_ids.shape[-1]  # rows without padding: argmax is 0 -> last position
        rewards = self.v_head(hidden).squeeze(-1)
        return rewards[torch.arange(input_ids.size(0), device=input_ids.device), seq_end]


def build():
    torch.manual_seed(0)
    model = RewardModel().eval()
    lengths = torch.tensor([10, 7, 4])
    input_ids = torch.randint(1, 64, (3, 10)) * (torch.arange(10)[None] < lengths[:, None])
    return model, (input_ids,)
