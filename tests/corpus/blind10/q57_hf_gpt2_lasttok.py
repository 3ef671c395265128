import torch
import torch.nn as nn
from transformers import GPT2Config, GPT2Model


class GPT2RewardModel(nn.Module):
    """Scores a (prompt, response) sequence with the hidden state of its final token."""

    def __init__(self, config):
        super().__init__()
        self.transformer = GPT2Model(config)
        self.value_head = nn.Linear(config.n_embd, 1, bias=False)

    def forward(self, input_ids, attention_mask):
        hidden = self.transformer(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        last = hidden[:, -1]
        return self.value_head(last).squeeze(-1)


def build():
    torch.manual_seed(0)
    cfg = GPT2Config(vocab_size=64, n_positions=32, n_embd=32, n_layer=2, n_head=4,
                     pad_token_id=0, bos_token_id=1, eos_token_id=1, attn_implementation="eager")
    model = GPT2RewardModel(cfg).eval()
    ids = torch.zeros(3, 12, dtype=torch.long)
    for b, n in enumerate([12, 8, 5]):  # right padded, as produced by the data collator
        ids[b, :n] = torch.randint(2, 64, (n,))
        ids[b, n - 1] = 1  # eos
    attention_mask = (ids != 0).long()
    return model, (ids, attention_mask)
