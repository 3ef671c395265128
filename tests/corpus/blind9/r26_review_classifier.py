import torch
import torch.nn as nn
from transformers import GPT2Config, GPT2Model


class GPT2Classifier(nn.Module):
    def __init__(self, num_labels=3):
        super().__init__()
        config = GPT2Config(vocab_size=70, n_positions=32, n_embd=32, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0, pad_token_id=0)
        self.transformer = GPT2Model(config)
        self.score = nn.Linear(config.n_embd, num_labels, bias=False)

    def forward(self, input_ids, attention_mask):
        hidden_states = self.transformer(input_ids, attention_mask=attention_mask).last_hidden_state
        pooled = hidden_states[:, -1]
        return self.score(pooled)


def build():
    torch.manual_seed(0)
    model = GPT2Classifier().eval()
    input_ids = torch.randint(1, 70, (3, 10))
    attention_mask = torch.ones(3, 10, dtype=torch.long)
    attention_mask[0, 7:] = 0
    attention_mask[2, 4:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
