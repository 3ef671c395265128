import math
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, vocab_size=70, d_model=32, nhead=4, num_layers=2, num_labels=3, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=0)
        self.pos_embed = nn.Embedding(max_len, d_model)
        enc_layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=4 * d_model,
                                               dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, num_layers=num_layers)
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(d_model, num_labels)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        h = self.embed(input_ids) + self.pos_embed(positions)
        h = self.encoder(h, src_key_padding_mask=attention_mask == 0)
        m = attention_mask.unsqueeze(-1).type_as(h)
        pooled = (h * m).sum(dim=1) / m.sum(dim=1).clamp(min=1.0)
        return self.head(self.dropout(pooled))


def build():
    torch.manual_seed(0)
    model = Classifier().eval()
    input_ids = torch.tensor([[3, 45, 12, 8, 61, 2, 0, 0],
                              [3, 19, 2, 0, 0, 0, 0, 0],
                              [3, 7, 33, 28, 14, 50, 9, 2]])
    attention_mask = (input_ids != 0).long()
    return model, (input_ids, attention_mask)
