"""Citation intent classification (background / method / result) from the citing sentence.

A small Transformer encoder reads the sentence; an additive attention pooler (Bahdanau-style)
collapses the tokens, and the citation-marker embedding is concatenated before the classifier."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttentionPool(nn.Module):
    def __init__(self, d, d_att=32):
        super().__init__()
        self.proj = nn.Linear(d, d_att)
        self.context = nn.Parameter(torch.randn(d_att) * 0.1)

    def forward(self, h, mask):
        # h: (B, T, d), mask: (B, T) with 1 for real tokens
        u = torch.tanh(self.proj(h))
        scores = (u @ self.context).masked_fill(mask == 0, -1e4)
        alpha = F.softmax(scores, dim=0)
        return torch.einsum("bt,btd->bd", alpha, h)


class CitationIntentClassifier(nn.Module):
    def __init__(self, vocab=200, d=32, heads=4, n_classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(40, d)
        layer = nn.TransformerEncoderLayer(d, heads, 64, dropout=0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.pool = AdditiveAttentionPool(d)
        self.cls = nn.Linear(2 * d, n_classes)

    def forward(self, input_ids, attention_mask, cite_pos):
        T = input_ids.size(1)
        x = self.embed(input_ids) + self.pos.weight[:T]
        h = self.encoder(x, src_key_padding_mask=attention_mask == 0)
        sent = self.pool(h, attention_mask)
        marker = h[torch.arange(h.size(0)), cite_pos]
        return self.cls(torch.cat([sent, marker], -1))


def build():
    torch.manual_seed(0)
    model = CitationIntentClassifier().eval()
    ids = torch.randint(1, 200, (4, 16))
    attention_mask = torch.ones(4, 16, dtype=torch.long)
    attention_mask[1, 12:] = 0
    attention_mask[3, 9:] = 0
    ids[attention_mask == 0] = 0
    cite_pos = torch.tensor([3, 5, 1, 7])
    return model, (ids, attention_mask, cite_pos)
