"""Intent classification with a (tiny, randomly initialized) DistilBERT from transformers.
The tokenizer-style batch carries an attention_mask with 1 = real token.
"""
import torch
import torch.nn as nn
from transformers import DistilBertConfig, DistilBertForSequenceClassification

CLS, SEP, PAD = 101, 102, 0


class IntentClassifier(nn.Module):
    def __init__(self, n_intents=6):
        super().__init__()
        config = DistilBertConfig(
            vocab_size=128, dim=32, n_layers=2, n_heads=4, hidden_dim=64, max_position_embeddings=48,
            num_labels=n_intents, pad_token_id=PAD, initializer_range=0.2,
        )
        self.model = DistilBertForSequenceClassification(config)

    def forward(self, input_ids, attention_mask):
        return self.model(input_ids=input_ids, attention_mask=attention_mask).logits.softmax(dim=-1)


def tokenize(batch_ids):
    T = max(len(s) for s in batch_ids) + 2
    input_ids = torch.full((len(batch_ids), T), PAD)
    attention_mask = torch.zeros(len(batch_ids), T, dtype=torch.long)
    for i, s in enumerate(batch_ids):
        row = [CLS] + s + [SEP]
        input_ids[i, : len(row)] = torch.tensor(row)
        attention_mask[i, : len(row)] = 1
    return {"input_ids": input_ids, "attention_mask": attention_mask}


def build():
    torch.manual_seed(0)
    model = IntentClassifier().eval()
    utterances = [torch.randint(1, 100, (n,)).tolist() for n in (11, 7, 4)]
    batch = tokenize(utterances)
    return model, (), batch
