"""Encoder with attention pooling: a learned query reads the sequence through nn.MultiheadAttention."""
import torch
import torch.nn as nn


class AttentionPool(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.query = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, h, attention_mask):
        q = self.query.expand(h.shape[0], -1, -1)
        pooled, _ = self.attn(q, h, h, key_padding_mask=attention_mask.bool(), need_weights=False)
        return pooled.squeeze(1)


class PooledEncoder(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2, num_classes=4, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.pool = AttentionPool(dim, heads)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, input_ids, attention_mask):
        # attention_mask: (B, T), 1 for real tokens and 0 for padding
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.shape[1], device=input_ids.device))
        h = self.encoder(x, src_key_padding_mask=~attention_mask.bool())
        return self.head(self.pool(h, attention_mask))


def build():
    torch.manual_seed(0)
    model = PooledEncoder().eval()
    attention_mask = (torch.arange(9)[None, :] < torch.tensor([6, 4])[:, None]).long()
    input_ids = torch.randint(1, 64, (2, 9)) * attention_mask
    return model, (input_ids, attention_mask)
