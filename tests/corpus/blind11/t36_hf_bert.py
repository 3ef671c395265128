"""Sentence classifier on a tiny random BertModel; the collator hands over a padding mask (True = pad)."""
import torch
import torch.nn as nn
from transformers import BertConfig, BertModel


class BertClassifier(nn.Module):
    def __init__(self, num_labels=3):
        super().__init__()
        config = BertConfig(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                            intermediate_size=64, max_position_embeddings=32, hidden_dropout_prob=0.0,
                            attention_probs_dropout_prob=0.0, pad_token_id=0, initializer_range=0.3, attn_implementation="eager")
        self.bert = BertModel(config, add_pooling_layer=True)
        self.classifier = nn.Linear(config.hidden_size, num_labels)

    def forward(self, input_ids, padding_mask):
        out = self.bert(input_ids=input_ids, attention_mask=padding_mask.long())
        return self.classifier(out.pooler_output)


def build():
    torch.manual_seed(0)
    model = BertClassifier().eval()
    lens = torch.tensor([10, 7, 4])
    padding_mask = torch.arange(10)[None] >= lens[:, None]
    input_ids = torch.randint(5, 64, (3, 10)).masked_fill(padding_mask, 0)
    input_ids[:, 0] = 2  # [CLS]
    return model, (input_ids, padding_mask)
