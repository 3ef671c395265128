"""Named-entity tagger on a tiny random DeBERTa-v2 encoder.

DeBERTa uses disentangled relative attention (content-to-position and position-to-content
terms over log-bucketed relative distances) and no absolute position embeddings in this
configuration. Sentences are right padded; the tokenizer's attention_mask is passed through.
"""
import torch
import torch.nn as nn
from transformers import DebertaV2Config, DebertaV2Model


class EntityTagger(nn.Module):
    def __init__(self, encoder, n_tags=7):
        super().__init__()
        self.encoder = encoder
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(encoder.config.hidden_size, n_tags)

    def forward(self, input_ids, attention_mask):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.classifier(self.dropout(hidden))


def build():
    torch.manual_seed(49)
    config = DebertaV2Config(
        vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        max_position_embeddings=64, relative_attention=True, pos_att_type=["p2c", "c2p"],
        position_buckets=8, max_relative_positions=16, position_biased_input=False, pad_token_id=0)
    model = EntityTagger(DebertaV2Model(config)).eval()
    lengths = torch.tensor([13, 9, 4])
    attention_mask = (torch.arange(13)[None] < lengths[:, None]).long()
    input_ids = torch.randint(3, 64, (3, 13)).masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
