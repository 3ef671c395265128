"""Batch-first encoder on nn.MultiheadAttention with masked mean pooling."""
import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads, dropout=0.1):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.norm1 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x, key_padding_mask):
        h = self.norm1(x)
        attn, _ = self.mha(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)
        x = x + attn
        return x + self.ff(self.norm2(x))


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=90, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids, attention_mask):
        key_padding_mask = attention_mask == 0
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.shape[1], device=input_ids.device))
        for layer in self.layers:
            x = layer(x, key_padding_mask)
        x = self.norm(x)
        weights = attention_mask.unsqueeze(-1).float()
        sentence = (x * weights).sum(1) / weights.sum(1).clamp(min=1e-6)
        return sentence, x * weights


def build():
    torch.manual_seed(0)
    model = SentenceEncoder().eval()
    attention_mask = (torch.arange(8)[None, :] < torch.tensor([8, 5, 3])[:, None]).long()
    input_ids = torch.randint(1, 90, (3, 8)) * attention_mask
    return model, (input_ids, attention_mask)
