"""Biomedical relation extraction (chemical-disease) with entity-marker pooling on BioGPT.

Sentences carry marker tokens before the head and tail entities; the representation of the
pair is the concatenation of the hidden states at the two markers. Because BioGPT is causal,
the tail marker is placed after the head marker and a third read-out at the last real token
gives the classifier a view of the whole sentence. Built from a tiny random config.
"""
import torch
import torch.nn as nn
from transformers import BioGptConfig, BioGptModel


class MarkerPoolingRE(nn.Module):
    def __init__(self, n_relations=4):
        super().__init__()
        cfg = BioGptConfig(vocab_size=140, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                           intermediate_size=64, max_position_embeddings=64, pad_token_id=1)
        self.biogpt = BioGptModel(cfg)
        self.classifier = nn.Sequential(nn.Linear(3 * 32, 32), nn.Tanh(), nn.Linear(32, n_relations))

    def forward(self, input_ids, attention_mask, head_pos, tail_pos):
        h = self.biogpt(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        rows = torch.arange(h.size(0), device=h.device)
        last_real = attention_mask.long().sum(dim=1) - 1
        pair = torch.cat([h[rows, head_pos], h[rows, tail_pos], h[rows, last_real]], dim=-1)
        return self.classifier(pair)


def build():
    torch.manual_seed(0)
    model = MarkerPoolingRE().eval()
    input_ids = torch.randint(2, 140, (3, 16))
    attention_mask = torch.ones_like(input_ids)
    attention_mask[1, 11:] = 0
    attention_mask[2, 7:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 1)
    head_pos = torch.tensor([2, 1, 0])
    tail_pos = torch.tensor([9, 6, 4])
    return model, (input_ids, attention_mask, head_pos, tail_pos)
