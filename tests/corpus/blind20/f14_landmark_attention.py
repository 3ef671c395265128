"""Landmark attention LM (Mohtashami & Jaggi, NeurIPS 2023).

The input is cut into blocks of `block` positions whose last position is a landmark token
(inserted by the data pipeline). A query attends directly to the tokens of its own block (causally)
and to the landmarks of finished earlier blocks; the weight a landmark wins in that softmax is
then spread over the tokens of its block with a second softmax restricted to that block
("grouped softmax"). This lets retrieval at inference pick whole blocks by their landmark.
"""
import torch
import torch.nn as nn


class LandmarkAttention(nn.Module):
    def __init__(self, dim, heads, block):
        super().__init__()
        self.heads, self.dh, self.block = heads, dim // heads, block
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)

    def forward(self, x, is_landmark):
        B, T, D = x.shape
        n_blocks = T // self.block
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        logits = q @ k.transpose(-1, -2) / self.dh ** 0.5
        pos = torch.arange(T, device=x.device)
        blk = pos // self.block
        lm = is_landmark[:, None, None, :]
        direct = (blk[:, None] == blk[None, :]) & (pos[None, :] <= pos[:, None]) & ~lm
        via_landmark = lm & (blk[None, :] <= blk[:, None])
        w = logits.masked_fill(~(direct | via_landmark), float("-inf")).softmax(dim=-1)
        grouped = logits.masked_fill(lm, float("-inf")).view(B, self.heads, T, n_blocks, self.block)
        within = grouped.softmax(dim=-1)
        gate = w.masked_fill(~via_landmark, 0.0).view(B, self.heads, T, n_blocks, self.block)
        spread = (within * gate.sum(dim=-1, keepdim=True)).view(B, self.heads, T, T)
        attn = w.masked_fill(~direct, 0.0) + spread
        return self.out((attn @ v).transpose(1, 2).reshape(B, T, D))


class LandmarkLM(nn.Module):
    def __init__(self, vocab=200, dim=32, heads=4, depth=2, block=6, landmark_id=1, max_len=64):
        super().__init__()
        self.landmark_id = landmark_id
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.attn = nn.ModuleList(LandmarkAttention(dim, heads, block) for _ in range(depth))
        self.ln1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.ln2 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
                                 for _ in range(depth))
        self.ln_f = nn.LayerNorm(dim)

    def forward(self, ids):
        is_landmark = ids == self.landmark_id
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for attn, ln1, ln2, mlp in zip(self.attn, self.ln1, self.ln2, self.mlp):
            x = x + attn(ln1(x), is_landmark)
            x = x + mlp(ln2(x))
        return self.ln_f(x) @ self.tok.weight.T


def build():
    torch.manual_seed(0)
    model = LandmarkLM().eval()
    ids = torch.randint(2, 200, (2, 18))
    ids[:, 5::6] = 1
    return model, (ids,)
