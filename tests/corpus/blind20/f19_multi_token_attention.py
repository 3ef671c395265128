"""Multi-Token Attention (Golovneva et al., 2025): key-query convolution over attention logits.

Each head convolves its logit map with a small (c_q x c_k) kernel so one attention weight can
depend on several neighbouring queries and keys. Causality is kept as in the paper:
    A = Softmax(Mask_-inf(Conv2d(Mask_0(QK^T / sqrt(d)))))
Future logits are zeroed before the convolution (so they add nothing to any sum) and set to -inf
after it; the query direction of the kernel only looks back (padding on top only).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeyQueryConvAttention(nn.Module):
    def __init__(self, dim, heads, c_q=3, c_k=5):
        super().__init__()
        self.heads, self.dh, self.c_q, self.c_k = heads, dim // heads, c_q, c_k
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        kernel = torch.zeros(heads, 1, c_q, c_k)
        kernel[:, 0, c_q - 1, c_k // 2] = 1.0
        self.kq_kernel = nn.Parameter(kernel)
        self.head_norm = nn.GroupNorm(heads, dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / self.dh ** 0.5
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(future, 0.0)
        scores = F.pad(scores, (self.c_k // 2, self.c_k - 1 - self.c_k // 2, self.c_q - 1, 0))
        scores = F.conv2d(scores, self.kq_kernel, groups=self.heads)
        attn = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        o = (attn @ v).transpose(1, 2).reshape(B * T, D)
        return self.out(self.head_norm(o).view(B, T, D))


class MTABlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = KeyQueryConvAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ff(self.n2(x))


class MTALM(nn.Module):
    def __init__(self, vocab=160, dim=32, heads=4, depth=2, max_len=64):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(MTABlock(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = MTALM()
    with torch.no_grad():
        for blk in model.blocks:
            blk.attn.kq_kernel.add_(0.3 * torch.randn_like(blk.attn.kq_kernel))
    return model.eval(), (torch.randint(0, 160, (3, 16)),)
