import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, n_embd=32, n_head=4, block_size=16):
        super().__init__()
        self.key = nn.Linear(n_embd, n_embd)
        self.query = nn.Linear(n_embd, n_embd)
        self.value = nn.Linear(n_embd, n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        k = self.key(x).view(B, self.n_head, T, C // self.n_head)
        q = self.query(x).view(B, self.n_head, T, C // self.n_head)
        v = self.value(x).view(B, self.n_head, T, C // self.n_head)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(32)
        self.ln2 = nn.LayerNorm(32)
        self.attn = SelfAttention()
        self.mlp = nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.Linear(128, 32))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab=40, block_size=16):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, 32)
        self.pos_emb = nn.Parameter(torch.randn(1, block_size, 32) * 0.02)
        self.blocks = nn.Sequential(Block(), Block())
        self.ln_f = nn.LayerNorm(32)
        self.head = nn.Linear(32, vocab, bias=False)

    def forward(self, idx):
        x = self.tok_emb(idx) + self.pos_emb[:, : idx.size(1)]
        return self.head(self.ln_f(self.blocks(x)))


def build():
    torch.manual_seed(0)
    model = GPT().eval()
    idx = torch.randint(0, 40, (2, 8))
    return model, (idx,)
