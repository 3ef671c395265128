"""Multilingual sentence embeddings from an XLM-RoBERTa encoder (tiny random config).

Token ids follow the XLM-R sentencepiece vocabulary. Batches come from our bucketing
collator, right padded; the embedding is the hidden state of the first token, followed by
a projection head.
"""
import torch
import torch.nn as nn
from transformers import XLMRobertaConfig, XLMRobertaModel


class SentenceEncoder(nn.Module):
    def __init__(self, encoder, dim=16):
        super().__init__()
        self.encoder = encoder
        self.proj = nn.Linear(encoder.config.hidden_size, dim)

    def forward(self, input_ids):
        attention_mask = (input_ids != 0).long()
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return nn.functional.normalize(self.proj(hidden[:, 0]), dim=-1)


def build():
    torch.manual_seed(47)
    config = XLMRobertaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                              num_attention_heads=4, max_position_embeddings=40,
                              bos_token_id=0, pad_token_id=1, eos_token_id=2)
    model = SentenceEncoder(XLMRobertaModel(config)).eval()
    lengths = torch.tensor([12, 8, 5])
    input_ids = torch.randint(3, 64, (3, 12))
    for b, n in enumerate(lengths.tolist()):
        input_ids[b, 0], input_ids[b, n - 1] = 0, 2
        input_ids[b, n:] = 1
    return model, (input_ids,)
