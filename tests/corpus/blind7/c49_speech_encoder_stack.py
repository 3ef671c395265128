import torch
import torch.nn as nn
import torch.nn.functional as F


class MHSA(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, keep=None):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        mask = None if keep is None else keep[:, None, None, :]
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.o(a.transpose(1, 2).reshape(B, T, D))


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.attn = MHSA(d, heads)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, keep=None):
        x = x + self.attn(self.norm1(x), keep)
        return x + self.ff(self.norm2(x))


class SpeechEncoder(nn.Module):
    def __init__(self, n_mels=16, d=32, heads=4, n_blocks=2, vocab=24):
        super().__init__()
        self.inp = nn.Linear(n_mels, d)
        self.pos = nn.Parameter(torch.randn(1, 32, d) * 0.02)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(n_blocks)])
        self.adapter = Block(d, heads)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, mels, mel_lens):
        T = mels.shape[1]
        keep = torch.arange(T, device=mels.device)[None, :] < mel_lens[:, None]
        x = self.inp(mels) + self.pos[:, :T]
        for blk in self.blocks:
            x = blk(x, keep)
        x = self.adapter(x)
        return self.head(self.norm(x)).log_softmax(-1)


def build():
    torch.manual_seed(0)
    model = SpeechEncoder().eval()
    mels = torch.randn(2, 10, 16)
    mel_lens = torch.tensor([10, 6])
    return model, (mels, mel_lens)
