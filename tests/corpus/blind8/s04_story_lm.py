import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d_model, nhead):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=0.1, batch_first=True)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, causal_mask, pad_mask):
        h = self.ln1(x)
        a, _ = self.attn(h, h, h, attn_mask=causal_mask, key_padding_mask=pad_mask, need_weights=False)
        x = x + a
        return x + self.mlp(self.ln2(x))


class MHALanguageModel(nn.Module):
    def __init__(self, vocab=45, d_model=32, nhead=4, n_layers=2, max_len=16, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab, d_model, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList([Block(d_model, nhead) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        T = ids.size(1)
        causal_mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=ids.device), diagonal=1)
        pad_mask = ids == self.pad_id
        x = self.tok(ids) + self.pos(torch.arange(T, device=ids.device))
        for blk in self.blocks:
            x = blk(x, causal_mask, pad_mask)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = MHALanguageModel().eval()
    ids = torch.tensor([[5, 22, 14, 9, 31, 7, 18, 3], [11, 40, 26, 8, 0, 0, 0, 0]])
    return model, (ids,)
