"""Query expansion term scorer on top of a RemBERT encoder.

Given a query and a pseudo-relevant passage packed as a pair, the model scores every passage
token as a candidate expansion term. The wrapper builds the attention mask from the tokenizer's
pad id and forwards it to the encoder."""
import torch
import torch.nn as nn
from transformers import RemBertConfig, RemBertModel


class ExpansionTermScorer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.pad_token_id = config.pad_token_id
        self.encoder = RemBertModel(config, add_pooling_layer=False)
        self.term_head = nn.Sequential(
            nn.Linear(config.hidden_size, config.hidden_size), nn.GELU(), nn.Linear(config.hidden_size, 1))

    def forward(self, input_ids, token_type_ids):
        is_pad = (input_ids == self.pad_token_id).long()
        out = self.encoder(input_ids=input_ids, token_type_ids=token_type_ids, attention_mask=is_pad)
        scores = self.term_head(out.last_hidden_state).squeeze(-1)
        passage = (token_type_ids == 1) & (is_pad == 0)
        return scores.masked_fill(~passage, -1e4)


def tiny_config():
    return RemBertConfig(
        vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, input_embedding_size=16, output_embedding_size=16,
        max_position_embeddings=64, pad_token_id=0, bos_token_id=2, eos_token_id=3,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
    )


def build():
    torch.manual_seed(0)
    model = ExpansionTermScorer(tiny_config()).eval()
    ids = torch.randint(4, 120, (3, 16))
    tt = torch.zeros(3, 16, dtype=torch.long)
    tt[:, 5:] = 1
    ids[0, 12:] = 0
    ids[1, 14:] = 0
    ids[2, 9:] = 0
    tt[ids == 0] = 0
    return model, (ids, tt)
