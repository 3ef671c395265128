import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import BertConfig, BertModel


class RetrievalEncoder(nn.Module):
    def __init__(self, out_dim=16):
        super().__init__()
        config = BertConfig(vocab_size=60, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                            intermediate_size=64, max_position_embeddings=32)
        self.bert = BertModel(config, add_pooling_layer=False)
        self.proj = nn.Linear(config.hidden_size, out_dim)

    def forward(self, input_ids, attention_mask):
        outputs = self.bert(input_ids=input_ids, attention_mask=attention_mask)
        token_embeddings = outputs.last_hidden_state
        embeddings = token_embeddings.mean(dim=1)
        return F.normalize(self.proj(embeddings), dim=-1)


def build():
    torch.manual_seed(0)
    model = RetrievalEncoder().eval()
    input_ids = torch.randint(1, 60, (3, 9))
    attention_mask = torch.ones(3, 9, dtype=torch.long)
    attention_mask[0, 5:] = 0
    attention_mask[2, 3:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
