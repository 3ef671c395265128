import math

import torch
import torch.nn as nn


class DocumentClassifier(nn.Module):
    def __init__(self, vocab=64, d_model=32, nhead=4, nlayers=2, nclass=3, max_len=32, pad_idx=0):
        super().__init__()
        self.pad_idx = pad_idx
        self.embedding = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.position = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, nlayers, enable_nested_tensor=False)
        self.classifier = nn.Linear(d_model, nclass)

    def forward(self, input_ids):
        pad_mask = input_ids == self.pad_idx
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.embedding(input_ids) + self.position(pos)[None]
        h = self.encoder(x, src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).type_as(h)
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.classifier(pooled), h


def build():
    torch.manual_seed(0)
    model = DocumentClassifier().eval()
    input_ids = torch.randint(1, 64, (3, 10))
    input_ids[0, 7:] = 0
    input_ids[2, 4:] = 0
    return model, (input_ids,)
