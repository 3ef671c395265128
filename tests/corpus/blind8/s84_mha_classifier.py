import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab=50, d_model=32, nhead=4, n_layers=2, n_classes=2):
        super().__init__()
        self.nhead = nhead
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(16, d_model)
        self.attns = nn.ModuleList([nn.MultiheadAttention(d_model, nhead, batch_first=True) for _ in range(n_layers)])
        self.ffs = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model)) for _ in range(n_layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.cls = nn.Linear(d_model, n_classes)

    def forward(self, tokens):
        B, T = tokens.shape
        pad = tokens == 0
        attn_mask = torch.zeros(B, T, T).masked_fill(pad.unsqueeze(2), -1e4)
        attn_mask = attn_mask.repeat_interleave(self.nhead, dim=0)
        x = self.emb(tokens) + self.pos(torch.arange(T))
        for att, ff, l1, l2 in zip(self.attns, self.ffs, self.ln1, self.ln2):
            a, _ = att(x, x, x, attn_mask=attn_mask, need_weights=False)
            x = l1(x + a)
            x = l2(x + ff(x))
        return self.cls(x[:, 0])


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    tokens = torch.tensor([[2, 15, 8, 31, 0, 0, 0], [2, 7, 19, 24, 11, 42, 3], [2, 33, 0, 0, 0, 0, 0]])
    return model, (tokens,)
