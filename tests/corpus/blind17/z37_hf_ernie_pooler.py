"""Sentence-embedding encoder on an ERNIE backbone (HF transformers, tiny random config).

The tokenizer output is padded to the longest sentence in the batch. Embeddings are the
masked mean of the last hidden states, L2-normalised for cosine retrieval.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import ErnieConfig, ErnieModel


class ErnieSentenceEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ernie = ErnieModel(config, add_pooling_layer=False)
        self.pad_token_id = config.pad_token_id

    def forward(self, input_ids):
        is_pad = input_ids.eq(self.pad_token_id)
        hidden = self.ernie(input_ids=input_ids, attention_mask=is_pad.long()).last_hidden_state
        keep = (~is_pad).unsqueeze(-1).to(hidden.dtype)
        emb = (hidden * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return F.normalize(emb, dim=-1)


def build():
    torch.manual_seed(0)
    config = ErnieConfig(vocab_size=150, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                         intermediate_size=64, max_position_embeddings=64, pad_token_id=0)
    model = ErnieSentenceEncoder(config).eval()
    ids = torch.randint(1, 150, (3, 13))
    ids[0, 11:] = 0
    ids[1, 7:] = 0
    ids[2, 4:] = 0
    return model, (ids,)
