"""Batched prompt scoring with a (tiny, randomly initialized) Qwen2 causal LM from
transformers. Prompts are left-padded, as for generation; the attention mask uses the
library convention (1 = real token) and position ids count real tokens only.
"""
import torch
import torch.nn as nn
from transformers import Qwen2Config, Qwen2ForCausalLM

PAD = 0


class PromptScorer(nn.Module):
    def __init__(self):
        super().__init__()
        config = Qwen2Config(
            vocab_size=96, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, max_position_embeddings=64, pad_token_id=PAD, tie_word_embeddings=True,
        )
        self.lm = Qwen2ForCausalLM(config)

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, use_cache=False)
        return out.logits


def left_pad(seqs):
    T = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), T), PAD)
    mask = torch.zeros(len(seqs), T, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, T - len(s):] = torch.tensor(s)
        mask[i, T - len(s):] = 1
    return ids, mask


def build():
    torch.manual_seed(0)
    model = PromptScorer().eval()
    prompts = [torch.randint(1, 96, (n,)).tolist() for n in (13, 8, 5)]
    input_ids, attention_mask = left_pad(prompts)
    return model, (input_ids, attention_mask)
