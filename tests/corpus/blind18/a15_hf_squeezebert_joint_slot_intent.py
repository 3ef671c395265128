"""Joint intent detection and slot filling (JointBERT recipe) on a SqueezeBERT encoder.

Slot tags are predicted per token; the intent is predicted from the attention-mask-weighted
mean of the final hidden states. Built from a tiny random config so it runs offline.
"""
import torch
import torch.nn as nn
from transformers import SqueezeBertConfig, SqueezeBertModel


class JointSqueezeBert(nn.Module):
    def __init__(self, n_intents=7, n_slots=11):
        super().__init__()
        cfg = SqueezeBertConfig(
            vocab_size=120, hidden_size=32, embedding_size=32, num_hidden_layers=2,
            num_attention_heads=4, intermediate_size=64, max_position_embeddings=64,
            q_groups=2, k_groups=2, v_groups=2, post_attention_groups=1,
            intermediate_groups=2, output_groups=2, pad_token_id=0,
        )
        self.encoder = SqueezeBertModel(cfg)
        self.intent_head = nn.Sequential(nn.Dropout(0.1), nn.Linear(32, n_intents))
        self.slot_head = nn.Sequential(nn.Dropout(0.1), nn.Linear(32, n_slots))

    def forward(self, input_ids, attention_mask):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        w = attention_mask.unsqueeze(-1).to(hidden.dtype)
        sentence = (hidden * w).sum(1) / w.sum(1)
        return self.slot_head(hidden), self.intent_head(sentence)


def build():
    torch.manual_seed(0)
    model = JointSqueezeBert().eval()
    input_ids = torch.randint(1, 120, (3, 12))
    attention_mask = torch.ones(3, 12, dtype=torch.long)
    attention_mask[0, 8:] = 0
    attention_mask[2, 5:] = 0
    input_ids = input_ids * attention_mask
    return model, (input_ids, attention_mask)
