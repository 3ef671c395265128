import torch
import torch.nn as nn
from transformers import GPT2Config, GPT2LMHeadModel


class BatchedPrefill(nn.Module):
    """Left-padded batched prompt prefill: returns next-token log-probs for each prompt."""

    def __init__(self, config):
        super().__init__()
        self.lm = GPT2LMHeadModel(config)

    def forward(self, input_ids, attention_mask):
        position_ids = attention_mask.long().cumsum(-1) - 1
        position_ids = position_ids.masked_fill(attention_mask == 0, 1)
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, use_cache=True)
        return torch.log_softmax(out.logits[:, -1], dim=-1)


def build():
    torch.manual_seed(0)
    cfg = GPT2Config(vocab_size=64, n_positions=32, n_embd=32, n_layer=2, n_head=4, pad_token_id=0, bos_token_id=1, eos_token_id=1,
                     attn_implementation="eager")
    model = BatchedPrefill(cfg).eval()
    ids = torch.zeros(3, 10, dtype=torch.long)
    mask = torch.zeros(3, 10, dtype=torch.long)
    for b, n in enumerate([10, 6, 3]):
        ids[b, 10 - n:] = torch.randint(1, 64, (n,))
        mask[b, 10 - n:] = 1
    return model, (ids, mask)
