import torch
import torch.nn as nn
import torch.nn.functional as F


def chunk_attention_mask(T, chunk_size, num_left_chunks, device=None):
    chunk_idx = torch.arange(T, device=device) // chunk_size
    q = chunk_idx[:, None]
    k = chunk_idx[None, :]
    return (k <= q) & (k >= q - num_left_chunks)


class StreamingEncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.norm1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        return x + self.ff(self.norm2(x))


class U2StreamingEncoder(nn.Module):
    """Chunk-wise streaming encoder: every frame sees all frames of its own chunk and of the
    `num_left_chunks` chunks before it, and nothing from later chunks."""

    def __init__(self, n_mels=16, d=32, heads=4, n_layers=2, chunk_size=4, num_left_chunks=1):
        super().__init__()
        self.chunk_size = chunk_size
        self.num_left_chunks = num_left_chunks
        self.inp = nn.Linear(n_mels, d)
        self.pos = nn.Parameter(torch.randn(1, 32, d) * 0.02)
        self.layers = nn.ModuleList([StreamingEncoderLayer(d, heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d)

    def forward(self, mels):
        T = mels.shape[1]
        x = self.inp(mels) + self.pos[:, :T]
        mask = chunk_attention_mask(T, self.chunk_size, self.num_left_chunks, mels.device)
        for layer in self.layers:
            x = layer(x, mask)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = U2StreamingEncoder().eval()
    mels = torch.randn(2, 12, 16)
    return model, (mels,)
