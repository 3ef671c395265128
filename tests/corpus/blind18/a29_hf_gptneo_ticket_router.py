"""Support-ticket routing with a small GPT-Neo backbone and a linear classification head.

Tickets are tokenized, right-padded to the longest ticket in the batch, and the hidden state
of the final token (which, for a causal LM, has read the whole ticket) is fed to the router.
Built from a tiny random config so it runs offline.
"""
import torch
import torch.nn as nn
from transformers import GPTNeoConfig, GPTNeoModel

PAD_ID = 0


class TicketRouter(nn.Module):
    def __init__(self, n_queues=6):
        super().__init__()
        cfg = GPTNeoConfig(
            vocab_size=128, hidden_size=32, num_layers=2, num_heads=4,
            attention_types=[[["global", "local"], 1]], window_size=16,
            max_position_embeddings=64, bos_token_id=1, eos_token_id=2, pad_token_id=PAD_ID,
        )
        self.lm = GPTNeoModel(cfg)
        self.router = nn.Sequential(nn.LayerNorm(32), nn.Linear(32, n_queues))

    def forward(self, input_ids, attention_mask):
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask)
        last = out.last_hidden_state[:, -1, :]
        return self.router(last)


def build():
    torch.manual_seed(0)
    model = TicketRouter().eval()
    input_ids = torch.randint(3, 128, (3, 15))
    attention_mask = torch.ones_like(input_ids)
    attention_mask[0, 10:] = 0
    attention_mask[2, 6:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, PAD_ID)
    return model, (input_ids, attention_mask)
