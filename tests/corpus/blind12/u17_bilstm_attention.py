"""BiLSTM + self-attentive pooling sentence classifier (Lin et al., 2017 style).

Sentences are right padded with PAD = 0 and come with their lengths. A bidirectional LSTM
encodes the tokens; a two-layer MLP scores every position, padded positions are excluded
from the softmax, and the weighted sum of hidden states is classified.
"""
import torch
import torch.nn as nn

PAD = 0


class SelfAttentivePooling(nn.Module):
    def __init__(self, dim, hidden=24):
        super().__init__()
        self.ws1 = nn.Linear(dim, hidden, bias=False)
        self.ws2 = nn.Linear(hidden, 1, bias=False)

    def forward(self, h, mask):
        scores = self.ws2(torch.tanh(self.ws1(h))).squeeze(-1)      # (B, T)
        scores = scores.masked_fill(~mask, float("-inf"))
        alpha = torch.softmax(scores, dim=-1)
        return torch.einsum("bt,btd->bd", alpha, h)


class BiLSTMClassifier(nn.Module):
    def __init__(self, vocab=60, emb=16, hidden=16, n_classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.pool = SelfAttentivePooling(2 * hidden)
        self.out = nn.Linear(2 * hidden, n_classes)

    def forward(self, tokens, lengths):
        mask = torch.arange(tokens.size(1), device=tokens.device)[None, :] < lengths[:, None]
        x = self.embedding(tokens)
        h, _ = self.rnn(x)
        return self.out(self.pool(h, mask))


def build():
    torch.manual_seed(17)
    model = BiLSTMClassifier().eval()
    lengths = torch.tensor([10, 6, 3])
    tokens = torch.randint(1, 60, (3, 10))
    tokens = tokens.masked_fill(torch.arange(10)[None] >= lengths[:, None], PAD)
    return model, (tokens, lengths)
