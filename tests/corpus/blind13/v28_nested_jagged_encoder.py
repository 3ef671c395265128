"""Variable-length sentence encoder on jagged nested tensors.

Projections run on the padded batch; queries, keys and values are then cut to each
sentence's length and packed into torch.jagged nested tensors, so scaled_dot_product_attention
never sees a padded position. The result is padded again for the feed-forward and pooling.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def to_jagged(x, lengths):
    return torch.nested.nested_tensor([x[i, :n] for i, n in enumerate(lengths.tolist())], layout=torch.jagged)


class JaggedLayer(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, lengths):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, D // self.h).unbind(2)   # (B, T, H, dh)
        q, k, v = (to_jagged(t, lengths).transpose(1, 2) for t in (q, k, v))          # (B, H, j, dh)
        a = F.scaled_dot_product_attention(q, k, v)
        a = a.transpose(1, 2).to_padded_tensor(0.0, output_size=(B, T, self.h, D // self.h))
        x = x + self.o(a.reshape(B, T, D))
        return x + self.ff(self.ln2(x))


class JaggedEncoder(nn.Module):
    def __init__(self, vocab=90, d=32, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(32, d)
        self.layers = nn.ModuleList(JaggedLayer(d) for _ in range(n_layers))
        self.out = nn.Linear(d, 16)

    def forward(self, ids, lengths):
        T = ids.size(1)
        x = self.emb(ids) + self.pos(torch.arange(T, device=ids.device))
        for layer in self.layers:
            x = layer(x, lengths)
        real = (torch.arange(T, device=ids.device)[None] < lengths[:, None]).unsqueeze(-1).float()
        return self.out((x * real).sum(1) / real.sum(1))


def build():
    torch.manual_seed(0)
    model = JaggedEncoder().eval()
    lengths = torch.tensor([9, 5, 7])
    ids = torch.randint(1, 90, (3, 9))
    ids[torch.arange(9)[None] >= lengths[:, None]] = 0
    return model, (ids, lengths)
