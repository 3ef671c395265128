"""Sentence-embedding encoder (SBERT style): transformer over word pieces, mean pooling."""
import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, dropout=0.1, batch_first=True)
        self.ln1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Dropout(0.1), nn.Linear(ff, d))
        self.ln2 = nn.LayerNorm(d)

    def forward(self, x, key_padding_mask):
        a, _ = self.attn(x, x, x, key_padding_mask=key_padding_mask, need_weights=False)
        x = self.ln1(x + a)
        return self.ln2(x + self.ff(x))


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=200, d=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.word = nn.Embedding(vocab, d)
        self.position = nn.Embedding(max_len, d)
        self.emb_ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads, 4 * d) for _ in range(layers))

    def forward(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        hidden = self.emb_ln(self.word(input_ids) + self.position(pos))
        for layer in self.layers:
            hidden = layer(hidden, key_padding_mask=attention_mask == 0)
        mask = attention_mask.unsqueeze(-1).float()
        sentence_embedding = hidden.sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
        return sentence_embedding


def build():
    torch.manual_seed(0)
    model = SentenceEncoder().eval()
    lengths = torch.tensor([14, 9, 5])
    attention_mask = (torch.arange(14)[None] < lengths[:, None]).long()
    input_ids = torch.randint(3, 200, (3, 14)) * attention_mask
    return model, (input_ids, attention_mask)
