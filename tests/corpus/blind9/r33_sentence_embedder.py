import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import DistilBertConfig, DistilBertModel


def mean_pooling(token_embeddings, attention_mask):
    input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).float()
    return torch.sum(token_embeddings * input_mask_expanded, 1) / torch.clamp(input_mask_expanded.sum(1), min=1e-9)


class SentenceEmbedder(nn.Module):
    def __init__(self):
        super().__init__()
        config = DistilBertConfig(vocab_size=60, dim=32, n_layers=2, n_heads=4, hidden_dim=64, max_position_embeddings=32, pad_token_id=0)
        self.encoder = DistilBertModel(config)

    def forward(self, input_ids, attention_mask):
        token_embeddings = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        sentence_embeddings = mean_pooling(token_embeddings, attention_mask)
        return F.normalize(sentence_embeddings, p=2, dim=1)


def build():
    torch.manual_seed(0)
    model = SentenceEmbedder().eval()
    input_ids = torch.randint(1, 60, (3, 9))
    attention_mask = torch.ones(3, 9, dtype=torch.long)
    attention_mask[0, 5:] = 0
    attention_mask[1, 8:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
