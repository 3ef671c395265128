import torch
import torch.nn as nn
import torch.nn.functional as F


class ReviewClassifier(nn.Module):
    def __init__(self, vocab=60, d=32, heads=4, layers=2, n_cls=3, max_len=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(max_len, d)
        self.attn = nn.ModuleList(nn.MultiheadAttention(d, heads, batch_first=True) for _ in range(layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(layers))
        self.classifier = nn.Linear(2 * d, n_cls)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.size(1)))[None]
        key_padding_mask = attention_mask.bool()
        for attn, ln1, ln2, ff in zip(self.attn, self.ln1, self.ln2, self.ff):
            h = ln1(x)
            x = x + attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)[0]
            x = x + ff(ln2(x))
        m = attention_mask.unsqueeze(-1).float()
        mean = (x * m).sum(1) / m.sum(1)
        return self.classifier(torch.cat([x[:, 0], mean], -1))


def build():
    torch.manual_seed(0)
    model = ReviewClassifier().eval()
    ids = torch.zeros(2, 16, dtype=torch.long)  # fixed-length batches of 16
    for b, n in enumerate([13, 8]):
        ids[b, 0] = 1  # [CLS]
        ids[b, 1:n] = torch.randint(2, 60, (n - 1,))
    attention_mask = (ids != 0).long()
    return model, (ids, attention_mask)
