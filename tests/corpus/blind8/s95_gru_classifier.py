import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class GRUClassifier(nn.Module):
    def __init__(self, vocab=60, emb=24, hidden=32, n_classes=4, pad_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=pad_idx)
        self.gru = nn.GRU(emb, hidden, num_layers=1, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.3)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, text, text_lengths):
        embedded = self.dropout(self.embedding(text))
        packed = pack_padded_sequence(embedded, text_lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, hidden = self.gru(packed)
        hidden = torch.cat((hidden[-2], hidden[-1]), dim=1)
        return self.fc(self.dropout(hidden))


def build():
    torch.manual_seed(0)
    model = GRUClassifier().eval()
    text = torch.tensor([[5, 12, 7, 0, 0, 0], [9, 33, 41, 2, 17, 8], [22, 4, 0, 0, 0, 0]])
    text_lengths = torch.tensor([3, 6, 2])
    return model, (text, text_lengths)
