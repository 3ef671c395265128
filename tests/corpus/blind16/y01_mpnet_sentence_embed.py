"""Sentence embeddings with an MPNet encoder (sentence-transformers style).

Token states are mean-pooled over the real tokens of each sentence and L2-normalised, so that
cosine similarity is a plain dot product downstream.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import MPNetConfig, MPNetModel


def mean_pooling(token_embeddings, attention_mask):
    weights = attention_mask.unsqueeze(-1).to(token_embeddings.dtype)
    summed = (token_embeddings * weights).sum(dim=1)
    counts = weights.sum(dim=1).clamp(min=1e-9)
    return summed / counts


class SentenceEncoder(nn.Module):
    def __init__(self, config, out_dim=24):
        super().__init__()
        self.backbone = MPNetModel(config, add_pooling_layer=False)
        self.dense = nn.Linear(config.hidden_size, out_dim)

    def forward(self, input_ids, attention_mask):
        out = self.backbone(input_ids=input_ids, attention_mask=attention_mask)
        pooled = mean_pooling(out.last_hidden_state, attention_mask)
        return F.normalize(self.dense(pooled), p=2, dim=-1)


def build():
    torch.manual_seed(0)
    config = MPNetConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                         intermediate_size=64, max_position_embeddings=64, pad_token_id=1)
    model = SentenceEncoder(config).eval()
    lengths = torch.tensor([12, 7, 9])
    input_ids = torch.randint(5, 120, (3, 12))
    attention_mask = (torch.arange(12)[None, :] < lengths[:, None]).long()
    input_ids = input_ids.masked_fill(attention_mask == 0, config.pad_token_id)
    return model, (input_ids, attention_mask)
