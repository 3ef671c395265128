import torch
import torch.nn as nn


class MemoryAttentionLayer(nn.Module):
    def __init__(self, d_model=32, nhead=4, n_mem=3):
        super().__init__()
        self.memory = nn.Parameter(torch.randn(1, n_mem, d_model) * 0.5)
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=0.1, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(), nn.Linear(2 * d_model, d_model))

    def forward(self, x, key_padding_mask):
        B = x.size(0)
        mem = self.memory.expand(B, -1, -1)
        h = self.norm1(x)
        kv = torch.cat([mem, h], dim=1)
        mem_pad = torch.zeros(B, mem.size(1), dtype=torch.bool, device=x.device)
        kpm = torch.cat([mem_pad, key_padding_mask], dim=1)
        a, _ = self.attn(h, kv, kv, key_padding_mask=kpm, need_weights=False)
        x = x + a
        return x + self.ff(self.norm2(x))


class MemEncoder(nn.Module):
    def __init__(self, vocab=50, d_model=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(20, d_model)
        self.layers = nn.ModuleList([MemoryAttentionLayer(d_model) for _ in range(2)])
        self.out = nn.Linear(d_model, 6)

    def forward(self, tokens, key_padding_mask):
        x = self.embed(tokens) + self.pos(torch.arange(tokens.size(1)))
        for layer in self.layers:
            x = layer(x, key_padding_mask)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = MemEncoder().eval()
    tokens = torch.tensor([[7, 3, 22, 41, 5, 9, 0, 0], [12, 30, 8, 0, 0, 0, 0, 0]])
    key_padding_mask = tokens.eq(0)
    return model, (tokens, key_padding_mask)
