"""Coreference mention representation (Lee et al., 2017): a span is represented by its start
and end token states, a width embedding, and an attention-weighted "head word" vector computed
with a softmax restricted to the tokens inside the span. Spans are enumerated up to max width;
spans that cross the sentence end are invalid and get a large negative mention score."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def enumerate_spans(T, max_width):
    starts, ends = [], []
    for s in range(T):
        for w in range(max_width):
            starts.append(s)
            ends.append(min(s + w, T - 1))
    return torch.tensor(starts), torch.tensor(ends)


class SpanRepresentation(nn.Module):
    def __init__(self, d, max_width):
        super().__init__()
        self.head_scorer = nn.Linear(d, 1)
        self.width_emb = nn.Embedding(max_width, 16)

    def forward(self, h, starts, ends):
        # h: (B, T, d); starts/ends: (S,)
        T = h.size(1)
        idx = torch.arange(T)
        inside = (idx[None] >= starts[:, None]) & (idx[None] <= ends[:, None])   # (S, T), never empty
        logits = self.head_scorer(h).squeeze(-1)                                   # (B, T)
        logits = logits[:, None, :].masked_fill(~inside[None], float("-inf"))     # (B, S, T)
        alpha = logits.softmax(-1)
        head = alpha @ h                                                            # (B, S, d)
        w = self.width_emb(ends - starts)[None].expand(h.size(0), -1, -1)
        return torch.cat([h[:, starts], h[:, ends], head, w], -1)


class MentionScorer(nn.Module):
    def __init__(self, vocab=180, d=32, h=4, max_width=3):
        super().__init__()
        self.max_width = max_width
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(32, d)
        self.enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, h, 2 * d, dropout=0.2, batch_first=True), 2, enable_nested_tensor=False)
        self.spans = SpanRepresentation(d, max_width)
        self.ffnn = nn.Sequential(nn.Linear(3 * d + 16, d), nn.ReLU(), nn.Linear(d, 1))

    def forward(self, tokens, lengths):
        B, T = tokens.shape
        pad = torch.arange(T)[None] >= lengths[:, None]
        h = self.enc(self.emb(tokens) + self.pos.weight[:T], src_key_padding_mask=pad)
        starts, ends = enumerate_spans(T, self.max_width)
        scores = self.ffnn(self.spans(h, starts, ends)).squeeze(-1)        # (B, S)
        valid = ends[None] < lengths[:, None]
        valid = valid & (ends - starts == torch.minimum(ends - starts, torch.full_like(ends, self.max_width - 1)))
        return scores.masked_fill(~valid, -1e4)


def build():
    torch.manual_seed(0)
    model = MentionScorer().eval()
    tokens = torch.randint(1, 180, (3, 12))
    lengths = torch.tensor([12, 9, 5])
    tokens[torch.arange(12)[None] >= lengths[:, None]] = 0
    return model, (tokens, lengths)
