"""Batched next-token prediction for code completion with a tiny random GPT-BigCode
(StarCoder-style multi-query attention, learned absolute positions).

Prompts are left padded so the last column is every prompt's last token, and the
attention_mask marks the padding so it is never attended to.
"""
import torch
import torch.nn as nn
from transformers import GPTBigCodeConfig, GPTBigCodeForCausalLM


class CompletionHead(nn.Module):
    def __init__(self, lm):
        super().__init__()
        self.lm = lm

    def forward(self, input_ids, attention_mask):
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask)
        return torch.log_softmax(out.logits[:, -1], dim=-1)


def build():
    torch.manual_seed(50)
    config = GPTBigCodeConfig(vocab_size=64, n_embd=32, n_layer=2, n_head=4, n_positions=64,
                              multi_query=True, bos_token_id=1, eos_token_id=1, pad_token_id=0)
    model = CompletionHead(GPTBigCodeForCausalLM(config)).eval()
    lengths = torch.tensor([11, 7, 4])
    attention_mask = (torch.arange(11)[None] >= (11 - lengths)[:, None]).long()
    input_ids = torch.randint(2, 64, (3, 11)).masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
