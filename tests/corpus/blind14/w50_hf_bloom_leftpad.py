"""Scoring continuations with a tiny BLOOM (ALiBi positions) on a left-padded batch: per-token
log-probabilities of each sequence under the model."""
import torch
import torch.nn as nn
from transformers import BloomConfig, BloomForCausalLM


class ContinuationScorer(nn.Module):
    def __init__(self):
        super().__init__()
        config = BloomConfig(vocab_size=64, hidden_size=32, n_layer=2, n_head=4, pad_token_id=3)
        self.lm = BloomForCausalLM(config)

    def forward(self, input_ids, attention_mask):
        logits = self.lm(input_ids=input_ids, attention_mask=attention_mask).logits
        logprobs = logits[:, :-1].log_softmax(dim=-1)
        token_logprobs = logprobs.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
        scored = attention_mask[:, 1:] * attention_mask[:, :-1]  # target real, and predicted from a real position
        return token_logprobs * scored


def build():
    torch.manual_seed(0)
    model = ContinuationScorer().eval()
    lengths = torch.tensor([11, 8, 5])
    T = 11
    attention_mask = (torch.arange(T)[None] >= (T - lengths)[:, None]).long()
    input_ids = torch.where(attention_mask.bool(), torch.randint(4, 64, (3, T)), torch.tensor(3))
    return model, (input_ids, attention_mask)
