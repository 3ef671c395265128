"""Extractive QA head on a RoFormer encoder (SQuAD-style start/end pointers).

Input is `[CLS] question [SEP] context [SEP] pad...`. Only context tokens may be span
boundaries, so the question segment and the padding are excluded before the log-softmax
over positions.
"""
import torch
import torch.nn as nn
from transformers import RoFormerConfig, RoFormerModel


class SpanExtractor(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.encoder = RoFormerModel(config)
        self.qa_outputs = nn.Linear(config.hidden_size, 2)

    def forward(self, input_ids, attention_mask, token_type_ids):
        seq = self.encoder(input_ids=input_ids, attention_mask=attention_mask,
                           token_type_ids=token_type_ids).last_hidden_state
        logits = self.qa_outputs(seq)                       # (B, T, 2)
        candidate = (token_type_ids == 1) & attention_mask.bool()
        logits = logits.masked_fill(~candidate.unsqueeze(-1), torch.finfo(logits.dtype).min)
        return logits.log_softmax(dim=1)


def build():
    torch.manual_seed(0)
    config = RoFormerConfig(vocab_size=110, hidden_size=32, embedding_size=32, num_hidden_layers=2,
                            num_attention_heads=4, intermediate_size=64, max_position_embeddings=64,
                            type_vocab_size=2, pad_token_id=0)
    model = SpanExtractor(config).eval()
    B, T = 3, 16
    q_len = torch.tensor([4, 5, 3])
    total = torch.tensor([16, 12, 10])
    pos = torch.arange(T)[None, :]
    attention_mask = (pos < total[:, None]).long()
    token_type_ids = ((pos >= q_len[:, None]) & (pos < total[:, None])).long()
    input_ids = torch.randint(5, 110, (B, T)).masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask, token_type_ids)
