"""Pre-LN encoder-decoder (speech-translation style: continuous encoder inputs) with a
hand-written LayerNorm and hand-written attention; encoder frames are padded."""
import math

import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(dim=-1, keepdim=True)
        sigma2 = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
        return self.gamma * (x - mu) / torch.sqrt(sigma2 + self.eps) + self.beta


class MHA(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x, mem, keep):  # keep: broadcastable to (B, h, Tq, Tk), True = visible
        B, Tq, D = x.shape
        Tk = mem.size(1)
        q = self.q(x).view(B, Tq, self.h, self.dk).transpose(1, 2)
        k = self.k(mem).view(B, Tk, self.h, self.dk).transpose(1, 2)
        v = self.v(mem).view(B, Tk, self.h, self.dk).transpose(1, 2)
        s = q @ k.transpose(-2, -1) / math.sqrt(self.dk)
        s = s.masked_fill(~keep, float("-inf"))
        return self.o((s.softmax(-1) @ v).transpose(1, 2).reshape(B, Tq, D))


class DecLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.n1, self.n2, self.n3 = LayerNorm(d), LayerNorm(d), LayerNorm(d)
        self.self_attn, self.src_attn = MHA(d, h), MHA(d, h)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))

    def forward(self, y, memory, tgt_keep, src_keep):
        h = self.n1(y)
        y = y + self.self_attn(h, h, tgt_keep)
        y = y + self.src_attn(self.n2(y), memory, src_keep)
        return y + self.ff(self.n3(y))


class SpeechTranslator(nn.Module):
    def __init__(self, feat=20, vocab=90, d=32, h=4, layers=2):
        super().__init__()
        self.src_proj = nn.Linear(feat, d)
        self.enc = nn.ModuleList(MHA(d, h) for _ in range(layers))
        self.enc_norms = nn.ModuleList(LayerNorm(d) for _ in range(layers))
        self.enc_out_norm = LayerNorm(d)
        self.tgt_emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(64, d) * 0.02)
        self.dec = nn.ModuleList(DecLayer(d, h) for _ in range(layers))
        self.norm = LayerNorm(d)
        self.generator = nn.Linear(d, vocab)

    def forward(self, frames, frame_lens, tgt):
        S, T = frames.size(1), tgt.size(1)
        src_keep = (torch.arange(S, device=frames.device)[None, :] < frame_lens[:, None])[:, None, None, :]
        x = self.src_proj(frames) + self.pos[:S]
        for attn, norm in zip(self.enc, self.enc_norms):
            h = norm(x)
            x = x + attn(h, h, src_keep)
        memory = self.enc_out_norm(x)
        tgt_keep = torch.tril(torch.ones(T, T, dtype=torch.bool, device=tgt.device))
        y = self.tgt_emb(tgt) + self.pos[:T]
        for layer in self.dec:
            y = layer(y, memory, tgt_keep, src_keep)
        return self.generator(self.norm(y))


def build():
    torch.manual_seed(0)
    model = SpeechTranslator().eval()
    frame_lens = torch.tensor([12, 9, 5])
    frames = torch.randn(3, 12, 20)
    tgt = torch.randint(0, 90, (3, 12))  # same length as the source here, by coincidence
    return model, (frames, frame_lens, tgt)
