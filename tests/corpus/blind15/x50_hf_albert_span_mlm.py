"""Span-masked language modelling (SpanBERT-style masking) with a (tiny, randomly
initialized) ALBERT from transformers: whole spans of real tokens are replaced by [MASK]
and the model predicts them; the prediction scores are returned for every position.
"""
import torch
import torch.nn as nn
from transformers import AlbertConfig, AlbertForMaskedLM

PAD, CLS, SEP, MASK = 0, 2, 3, 4


def span_mask(attention_mask, ratio=0.3, max_span=3, generator=None):
    B, T = attention_mask.shape
    chosen = torch.zeros(B, T, dtype=torch.bool)
    for b in range(B):
        n = int(attention_mask[b].sum())
        budget = max(1, int(ratio * (n - 2)))
        while chosen[b].sum() < budget:
            span = int(torch.randint(1, max_span + 1, (1,), generator=generator))
            start = int(torch.randint(1, n - 1, (1,), generator=generator))
            chosen[b, start: min(start + span, n - 1)] = True
    return chosen


class SpanMLM(nn.Module):
    def __init__(self):
        super().__init__()
        config = AlbertConfig(
            vocab_size=90, embedding_size=16, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=64, max_position_embeddings=48, pad_token_id=PAD, initializer_range=0.2,
        )
        self.albert = AlbertForMaskedLM(config)

    def forward(self, input_ids, attention_mask, spans):
        corrupted = input_ids.masked_fill(spans, MASK)
        return self.albert(input_ids=corrupted, attention_mask=attention_mask).logits


def build():
    torch.manual_seed(0)
    model = SpanMLM().eval()
    lengths = torch.tensor([16, 11, 7])
    attention_mask = (torch.arange(16)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(5, 90, (3, 16)) * attention_mask
    input_ids[:, 0] = CLS
    input_ids[torch.arange(3), lengths - 1] = SEP
    spans = span_mask(attention_mask, generator=torch.Generator().manual_seed(1))
    return model, (input_ids, attention_mask, spans)
