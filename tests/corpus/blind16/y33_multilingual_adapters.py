"""Multilingual encoder with per-language bottleneck adapters (MAD-X / X-MOD style).

Each sentence carries a language id; after every layer its hidden states pass through the
adapter of its own language, gathered per sample so one batch can mix languages.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LanguageAdapters(nn.Module):
    def __init__(self, num_langs, dim, bottleneck):
        super().__init__()
        self.down = nn.Parameter(torch.randn(num_langs, dim, bottleneck) * dim ** -0.5)
        self.down_b = nn.Parameter(torch.zeros(num_langs, bottleneck))
        self.up = nn.Parameter(torch.randn(num_langs, bottleneck, dim) * bottleneck ** -0.5)
        self.ln = nn.LayerNorm(dim)

    def forward(self, h, lang_ids):
        z = torch.einsum("btd,bdr->btr", self.ln(h), self.down[lang_ids]) + self.down_b[lang_ids][:, None]
        return h + torch.einsum("btr,brd->btd", F.gelu(z), self.up[lang_ids])


class AdapterEncoder(nn.Module):
    def __init__(self, vocab=160, dim=32, heads=4, layers=2, num_langs=5, max_len=32, num_labels=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=1)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True,
                                                                norm_first=True) for _ in range(layers)])
        self.adapters = nn.ModuleList([LanguageAdapters(num_langs, dim, 8) for _ in range(layers)])
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, lang_ids):
        h = self.embed(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        pad = attention_mask == 0
        for layer, adapter in zip(self.layers, self.adapters):
            h = adapter(layer(h, src_key_padding_mask=pad), lang_ids)
        return self.classifier(h[:, 0])


def build():
    torch.manual_seed(0)
    model = AdapterEncoder().eval()
    lengths = torch.tensor([16, 10, 13, 7])
    attention_mask = (torch.arange(16)[None] < lengths[:, None]).long()
    input_ids = torch.randint(3, 160, (4, 16)).masked_fill(attention_mask == 0, 1)
    lang_ids = torch.tensor([0, 3, 3, 1])
    return model, (input_ids, attention_mask, lang_ids)
