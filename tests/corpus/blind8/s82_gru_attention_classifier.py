import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionPooling(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)
        self.context = nn.Parameter(torch.randn(hidden) * 0.1)

    def forward(self, h, mask):
        u = torch.tanh(self.proj(h))
        scores = u @ self.context
        scores = scores.masked_fill(mask == 0, float("-inf"))
        alpha = F.softmax(scores, dim=1)
        return torch.bmm(alpha.unsqueeze(1), h).squeeze(1)


class GRUAttnClassifier(nn.Module):
    def __init__(self, vocab=60, emb=16, hidden=32, n_classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.pool = AttentionPooling(hidden)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x, mask):
        h, _ = self.gru(self.embedding(x))
        return self.out(self.pool(h, mask))


def build():
    torch.manual_seed(0)
    model = GRUAttnClassifier().eval()
    x = torch.tensor([[5, 9, 22, 41, 7, 0, 0], [13, 2, 0, 0, 0, 0, 0], [8, 30, 17, 4, 26, 55, 11]])
    mask = (x != 0).float()
    return model, (x, mask)
