"""Batched log-likelihood scoring of candidate continuations with an XGLM decoder.

Prompts are left-padded by the collator, which hands over a key-padding mask (True at pad
slots, the torch.nn.MultiheadAttention convention); the model returns next-token logits.
"""
import torch
import torch.nn as nn
from transformers import XGLMConfig, XGLMForCausalLM


def make_key_padding_mask(input_ids, pad_id):
    """True where the slot is padding."""
    return input_ids.eq(pad_id)


class CandidateScorer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.lm = XGLMForCausalLM(config)
        self.pad_id = config.pad_token_id

    def forward(self, input_ids, key_padding_mask):
        attention_mask = key_padding_mask.long()
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask)
        return out.logits.log_softmax(dim=-1)


def build():
    torch.manual_seed(0)
    config = XGLMConfig(vocab_size=96, d_model=32, num_layers=2, attention_heads=4, ffn_dim=64,
                        max_position_embeddings=64, pad_token_id=1, bos_token_id=0, eos_token_id=2,
                        tie_word_embeddings=False)
    model = CandidateScorer(config).eval()
    pads = torch.tensor([3, 0, 5])
    input_ids = torch.randint(4, 96, (3, 14))
    input_ids[torch.arange(14)[None, :] < pads[:, None]] = config.pad_token_id
    return model, (input_ids, make_key_padding_mask(input_ids, config.pad_token_id))
