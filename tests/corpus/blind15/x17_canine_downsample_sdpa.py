"""Tokenizer-free classifier in the style of CANINE (Clark et al., 2022): byte embeddings are
downsampled into "molecules" by a strided convolution, and a transformer runs over molecules.

The collator pads every text with byte 0 to a multiple of the downsampling rate.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoleculeAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, attn_mask):
        B, N, D = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return self.proj(y.transpose(1, 2).reshape(B, N, D))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(dim), MoleculeAttention(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, attn_mask):
        x = x + self.attn(self.ln1(x), attn_mask)
        return x + self.mlp(self.ln2(x))


class ByteClassifier(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, rate=4, max_bytes=64, n_classes=5):
        super().__init__()
        self.rate = rate
        self.byte_emb = nn.Embedding(256, dim)
        self.byte_pos = nn.Embedding(max_bytes, dim)
        self.downsample = nn.Conv1d(dim, dim, kernel_size=rate, stride=rate)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.classifier = nn.Linear(dim, n_classes)

    def forward(self, byte_ids, byte_mask):
        L = byte_ids.size(1)
        h = self.byte_emb(byte_ids) + self.byte_pos(torch.arange(L, device=byte_ids.device))
        mol = self.downsample(h.transpose(1, 2)).transpose(1, 2)
        mol_pad = ~byte_mask[:, :: self.rate]
        for blk in self.blocks:
            mol = blk(mol, mol_pad[:, None, None, :])
        keep = (~mol_pad).unsqueeze(-1).float()
        pooled = (self.norm(mol) * keep).sum(1) / keep.sum(1)
        return self.classifier(pooled)


def build():
    torch.manual_seed(0)
    model = ByteClassifier().eval()
    lengths = torch.tensor([20, 16, 8])
    byte_mask = torch.arange(24)[None, :] < lengths[:, None]
    byte_ids = torch.randint(32, 127, (3, 24)) * byte_mask
    return model, (byte_ids, byte_mask)
