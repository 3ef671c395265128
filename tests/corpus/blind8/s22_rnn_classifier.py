import torch
import torch.nn as nn


class RNNClassifier(nn.Module):
    def __init__(self, vocab_size=50, embed_dim=16, hidden_dim=24, num_classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.rnn = nn.GRU(embed_dim, hidden_dim, num_layers=2, batch_first=True, dropout=0.2)
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(hidden_dim, num_classes))

    def forward(self, input_ids, lengths):
        x = self.embedding(input_ids)
        output, _ = self.rnn(x)
        last = output[:, -1, :]
        return self.classifier(last)


def build():
    torch.manual_seed(0)
    model = RNNClassifier().eval()
    input_ids = torch.tensor([[4, 9, 23, 17, 8, 30], [12, 5, 41, 0, 0, 0], [7, 33, 0, 0, 0, 0]])
    lengths = torch.tensor([6, 3, 2])
    return model, (input_ids, lengths)
