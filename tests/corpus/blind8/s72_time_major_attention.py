import math
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    """Sequence-first multi-head attention: inputs are (T, B, E)."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        T, B, E = x.shape
        H, Dh = self.num_heads, self.head_dim
        q = self.q_proj(x).reshape(T, B * H, Dh).transpose(0, 1)
        k = self.k_proj(x).reshape(T, B * H, Dh).transpose(0, 1)
        v = self.v_proj(x).reshape(T, B * H, Dh).transpose(0, 1)
        q = q / math.sqrt(Dh)
        w = torch.bmm(q, k.transpose(1, 2))
        if key_padding_mask is not None:
            w = w.view(B, H, T, T)
            w = w.masked_fill(key_padding_mask.unsqueeze(1).unsqueeze(2), float("-inf"))
            w = w.view(B * H, T, T)
        w = torch.softmax(w, dim=-1)
        o = torch.bmm(w, v)
        o = o.transpose(0, 1).reshape(T, B, E)
        return self.out_proj(o)


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.self_attn = MultiHeadAttention(d, h)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x, key_padding_mask):
        x = self.norm1(x + self.self_attn(x, key_padding_mask))
        x = self.norm2(x + self.fc2(torch.relu(self.fc1(x))))
        return x


class Model(nn.Module):
    def __init__(self, d=24, h=3):
        super().__init__()
        self.l1 = Layer(d, h)
        self.l2 = Layer(d, h)

    def forward(self, x, key_padding_mask):
        return self.l2(self.l1(x, key_padding_mask), key_padding_mask)


def build():
    torch.manual_seed(1)
    model = Model().eval()
    T, B = 6, 3
    x = torch.randn(T, B, 24)
    lengths = torch.tensor([6, 3, 5])
    key_padding_mask = torch.arange(T)[None, :] >= lengths[:, None]
    return model, (x, key_padding_mask)
