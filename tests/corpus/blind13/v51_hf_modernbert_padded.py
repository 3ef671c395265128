"""Token classification with a tiny ModernBERT (transformers, random weights).

Alternating global and local (sliding window of 4 tokens) attention layers, rotary positions,
right-padded batch with an attention mask.
"""
import torch
import torch.nn as nn
from transformers import ModernBertConfig, ModernBertModel


class ModernBertTagger(nn.Module):
    def __init__(self, n_tags=5):
        super().__init__()
        cfg = ModernBertConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=3,
                               num_attention_heads=4, max_position_embeddings=64, local_attention=4,
                               global_attn_every_n_layers=2, pad_token_id=0, bos_token_id=1,
                               eos_token_id=2, cls_token_id=1, sep_token_id=2)
        cfg._attn_implementation = "sdpa"
        self.encoder = ModernBertModel(cfg)
        self.tagger = nn.Linear(32, n_tags)

    def forward(self, input_ids, attention_mask):
        h = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.tagger(h)


def build():
    torch.manual_seed(0)
    model = ModernBertTagger().eval()
    ids = torch.randint(3, 64, (3, 12))
    mask = torch.ones(3, 12, dtype=torch.long)
    mask[1, 8:] = 0
    mask[2, 5:] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
