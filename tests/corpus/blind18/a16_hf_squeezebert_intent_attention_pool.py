"""Intent classifier with a learned attention-pooling head over a SqueezeBERT encoder.

The pooling head scores each token with a small MLP, normalises the scores into weights and
takes the weighted sum of hidden states; the attention mask keeps padded tokens out of the
sentence vector.
"""
import torch
import torch.nn as nn
from transformers import SqueezeBertConfig, SqueezeBertModel


class AttentionPooler(nn.Module):
    def __init__(self, d, hidden=16):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(d, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, hidden_states, attention_mask):
        logits = self.score(hidden_states).squeeze(-1)
        weights = torch.softmax(logits, dim=-1)
        weights = weights * attention_mask.to(weights.dtype)
        return torch.einsum("bt,btd->bd", weights, hidden_states)


class SqueezeBertIntent(nn.Module):
    def __init__(self, n_intents=9):
        super().__init__()
        cfg = SqueezeBertConfig(
            vocab_size=150, hidden_size=32, embedding_size=32, num_hidden_layers=2,
            num_attention_heads=4, intermediate_size=64, max_position_embeddings=64,
            q_groups=2, k_groups=2, v_groups=2, post_attention_groups=1,
            intermediate_groups=2, output_groups=2, pad_token_id=0,
        )
        self.backbone = SqueezeBertModel(cfg)
        self.pool = AttentionPooler(32)
        self.classifier = nn.Linear(32, n_intents)

    def forward(self, input_ids, attention_mask):
        h = self.backbone(input_ids, attention_mask=attention_mask).last_hidden_state
        return self.classifier(self.pool(h, attention_mask))


def build():
    torch.manual_seed(0)
    model = SqueezeBertIntent().eval()
    input_ids = torch.randint(1, 150, (4, 14))
    attention_mask = torch.ones_like(input_ids)
    for b, n in enumerate([14, 9, 5, 11]):
        attention_mask[b, n:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
