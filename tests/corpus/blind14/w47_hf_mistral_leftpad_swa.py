"""Batched prompt scoring with a tiny Mistral (sliding-window attention, GQA) on left-padded
prompts; position ids are derived from the attention mask the way generate() prepares them."""
import torch
import torch.nn as nn
from transformers import MistralConfig, MistralForCausalLM


class PromptScorer(nn.Module):
    def __init__(self):
        super().__init__()
        config = MistralConfig(
            vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, sliding_window=4, max_position_embeddings=64,
            pad_token_id=0, bos_token_id=1, eos_token_id=2,
        )
        self.lm = MistralForCausalLM(config)

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, use_cache=False)
        return out.logits


def left_pad(seqs, pad_id=0):
    T = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), T), pad_id, dtype=torch.long)
    mask = torch.zeros(len(seqs), T, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, T - len(s):] = torch.tensor(s)
        mask[i, T - len(s):] = 1
    return ids, mask


def build():
    torch.manual_seed(0)
    model = PromptScorer().eval()
    prompts = [torch.randint(3, 64, (n,)).tolist() for n in (12, 9, 6)]
    input_ids, attention_mask = left_pad(prompts)
    return model, (input_ids, attention_mask)
