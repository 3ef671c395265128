import torch
import torch.nn as nn


class FixedLengthClassifier(nn.Module):
    def __init__(self, vocab=30, seq_len=6, d_model=16, nhead=2, n_classes=4):
        super().__init__()
        self.seq_len = seq_len
        self.d_model = d_model
        self.embedding = nn.Embedding(vocab, d_model)
        self.position = nn.Parameter(torch.randn(seq_len, 1, d_model) * 0.1)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=32, dropout=0.1)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.classifier = nn.Linear(seq_len * d_model, n_classes)

    def forward(self, src):
        T, B = src.shape
        x = self.embedding(src) + self.position
        x = self.encoder(x)
        x = x.reshape(B, T * self.d_model)
        return self.classifier(x)


def build():
    torch.manual_seed(0)
    model = FixedLengthClassifier().eval()
    src = torch.randint(0, 30, (6, 3))
    return model, (src,)
