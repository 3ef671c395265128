"""Multi-label topic classifier on a data2vec-text backbone (HF transformers, tiny random config).

The head follows the usual RoBERTa recipe: take the <s> token, dropout, dense + tanh,
dropout, projection to one logit per topic.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import Data2VecTextConfig, Data2VecTextModel


class TopicHead(nn.Module):
    def __init__(self, hidden, n_topics, p=0.1):
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.out_proj = nn.Linear(hidden, n_topics)
        self.dropout = nn.Dropout(p)
        self.p = p

    def forward(self, features):
        x = self.dropout(features[:, 0])
        x = torch.tanh(self.dense(x))
        x = F.dropout(x, p=self.p)
        return self.out_proj(x)


class Data2VecTopicClassifier(nn.Module):
    def __init__(self, config, n_topics=6):
        super().__init__()
        self.backbone = Data2VecTextModel(config, add_pooling_layer=False)
        self.head = TopicHead(config.hidden_size, n_topics, config.hidden_dropout_prob)

    def forward(self, input_ids, attention_mask):
        h = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.head(h)


def build():
    torch.manual_seed(0)
    config = Data2VecTextConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                intermediate_size=64, max_position_embeddings=64, pad_token_id=1)
    model = Data2VecTopicClassifier(config).eval()
    ids = torch.randint(3, 120, (3, 11))
    ids[:, 0] = 0
    mask = torch.ones(3, 11, dtype=torch.long)
    ids[1, 8:] = 1
    mask[1, 8:] = 0
    return model, (ids, mask)
