"""Event-sequence encoder on nn.MultiheadAttention with a per-head distance penalty.

Each head gets its own recency bias (ALiBi-like, symmetric for this bidirectional encoder),
combined with the key padding into one float mask of shape (batch * heads, T, T), the 3-D
form nn.MultiheadAttention accepts.
"""
import torch
import torch.nn as nn


class BiasedEncoderLayer(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, d))
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, attn_mask):
        a, _ = self.attn(x, x, x, attn_mask=attn_mask, need_weights=False)
        x = self.n1(x + a)
        return self.n2(x + self.ff(x))


class EventEncoder(nn.Module):
    def __init__(self, n_types=30, d=32, heads=4, n_layers=2):
        super().__init__()
        self.heads = heads
        self.emb = nn.Embedding(n_types, d, padding_idx=0)
        self.time = nn.Linear(1, d)
        self.layers = nn.ModuleList(BiasedEncoderLayer(d, heads) for _ in range(n_layers))
        slopes = torch.tensor([2.0 ** (-(i + 1)) for i in range(heads)])
        self.register_buffer("slopes", slopes)

    def forward(self, types, times, mask):
        B, T = types.shape
        H = self.heads
        dist = (times[:, :, None] - times[:, None, :]).abs()              # (B, T, T)
        dist_bias = -self.slopes[None, :, None, None] * dist[:, None]      # (B, H, T, T)
        pad = torch.zeros(B, T, T, device=types.device)
        pad = pad.masked_fill(mask[:, None, :] == 0, float("-inf"))     # (B, T, T)
        attn_mask = dist_bias.reshape(B * H, T, T) + pad.repeat(H, 1, 1)
        x = self.emb(types) + self.time(times.unsqueeze(-1))
        for layer in self.layers:
            x = layer(x, attn_mask)
        return x


def build():
    torch.manual_seed(0)
    model = EventEncoder().eval()
    B, T = 3, 9
    types = torch.randint(1, 30, (B, T))
    times = torch.rand(B, T).cumsum(-1)
    mask = torch.ones(B, T, dtype=torch.long)
    mask[0, 5:] = 0
    mask[2, 7:] = 0
    types[mask == 0] = 0
    return model, (types, times, mask)
