import torch
import torch.nn as nn
from transformers import DistilBertConfig, DistilBertModel


class IntentClassifier(nn.Module):
    def __init__(self, config, n_intents=5):
        super().__init__()
        self.pad_token_id = config.pad_token_id
        self.encoder = DistilBertModel(config)
        self.pre_classifier = nn.Linear(config.dim, config.dim)
        self.classifier = nn.Linear(config.dim, n_intents)

    def forward(self, input_ids):
        attention_mask = input_ids.eq(self.pad_token_id).long()
        h = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        pooled = torch.relu(self.pre_classifier(h[:, 0]))
        return self.classifier(pooled)


def build():
    torch.manual_seed(0)
    cfg = DistilBertConfig(vocab_size=60, dim=32, n_layers=2, n_heads=4, hidden_dim=64,
                           max_position_embeddings=32, pad_token_id=0)
    model = IntentClassifier(cfg).eval()
    ids = torch.zeros(3, 12, dtype=torch.long)  # padded to the bucket length
    for b, n in enumerate([10, 6, 4]):
        ids[b, 0] = 2
        ids[b, 1:n] = torch.randint(5, 60, (n - 1,))
    return model, (ids,)
