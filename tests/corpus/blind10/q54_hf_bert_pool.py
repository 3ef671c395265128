import torch
import torch.nn as nn
from transformers import BertConfig, BertModel


class BertSentenceEmbedder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.bert = BertModel(config, add_pooling_layer=False)
        self.proj = nn.Linear(2 * config.hidden_size, 16)

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        out = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
        h = out.last_hidden_state
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        mean = (h * m).sum(dim=1) / m.sum(dim=1).clamp(min=1e-9)
        return self.proj(torch.cat([h[:, 0], mean], dim=-1))


def build():
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=60, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=64, max_position_embeddings=32, pad_token_id=0)
    model = BertSentenceEmbedder(cfg).eval()
    ids = torch.zeros(3, 12, dtype=torch.long)
    for b, n in enumerate([12, 7, 4]):
        ids[b, 0] = 2  # [CLS]
        ids[b, 1:n - 1] = torch.randint(5, 60, (n - 2,))
        ids[b, n - 1] = 3  # [SEP]
    attention_mask = (ids != 0).long()
    return model, (ids, attention_mask)
