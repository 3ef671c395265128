"""Batched scoring with a tiny random GPT2LMHeadModel on left-padded prompts (position_ids from the mask)."""
import torch
import torch.nn as nn
from transformers import GPT2Config, GPT2LMHeadModel


class LeftPaddedScorer(nn.Module):
    def __init__(self):
        super().__init__()
        config = GPT2Config(vocab_size=64, n_positions=32, n_embd=32, n_layer=2, n_head=4, resid_pdrop=0.0,
                            embd_pdrop=0.0, attn_pdrop=0.0, pad_token_id=0, bos_token_id=1, eos_token_id=1,
                            attn_implementation="sdpa")
        self.lm = GPT2LMHeadModel(config)

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.long().cumsum(-1) - 1).masked_fill(attention_mask == 0, 1)
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids)
        logprobs = out.logits[:, :-1].log_softmax(-1)
        token_logprobs = logprobs.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
        scored = attention_mask[:, 1:] * attention_mask[:, :-1]  # target and its context both real
        return out.logits, (token_logprobs * scored).sum(-1)


def build():
    torch.manual_seed(0)
    T, lens = 11, [11, 8, 5]
    input_ids = torch.zeros(3, T, dtype=torch.long)
    attention_mask = torch.zeros(3, T, dtype=torch.long)
    for i, n in enumerate(lens):
        input_ids[i, T - n :] = torch.randint(1, 64, (n,))
        attention_mask[i, T - n :] = 1
    return LeftPaddedScorer().eval(), (input_ids, attention_mask)
