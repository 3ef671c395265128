"""Multimodal emotion recognition from speech and its transcript (IEMOCAP-style, 4 classes).

MulT-style fusion: the transcript attends to the acoustic frames and the frames attend to the
transcript; each stream is mean-pooled over its valid positions and the two are classified
jointly.
"""
import math

import torch
import torch.nn as nn

EMOTIONS = ["neutral", "happy", "sad", "angry"]


class CrossModalAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x, ctx, ctx_mask):
        B, Tq, D = x.shape
        Tk = ctx.size(1)
        q = self.q(x).view(B, Tq, self.heads, self.dh).transpose(1, 2)
        k = self.k(ctx).view(B, Tk, self.heads, self.dh).transpose(1, 2)
        v = self.v(ctx).view(B, Tk, self.heads, self.dh).transpose(1, 2)
        scores = q @ k.transpose(2, 3) / math.sqrt(self.dh)
        scores = scores.masked_fill(~ctx_mask[:, None, None, :], float("-inf"))
        attn = scores.softmax(dim=-1)
        out = (attn @ v).transpose(2, 3).reshape(B, Tq, D)
        return self.norm(x + self.o(out))


def masked_mean(h, mask):
    w = mask.unsqueeze(-1).to(h.dtype)
    return (h * w).sum(1) / w.sum(1).clamp(min=1.0)


class EmotionFusion(nn.Module):
    def __init__(self, vocab=500, n_mels=40, dim=32, heads=4, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.audio_in = nn.Sequential(nn.Linear(n_mels, dim), nn.GELU(), nn.Linear(dim, dim))
        self.text_to_audio = CrossModalAttention(dim, heads)
        self.audio_to_text = CrossModalAttention(dim, heads)
        self.cls = nn.Sequential(nn.Linear(2 * dim, dim), nn.GELU(), nn.Dropout(0.1), nn.Linear(dim, len(EMOTIONS)))

    def forward(self, text_ids, text_mask, mels, mel_lengths):
        Tt, Ta = text_ids.size(1), mels.size(1)
        text = self.tok(text_ids) + self.pos(torch.arange(Tt, device=text_ids.device))
        audio = self.audio_in(mels) + self.pos(torch.arange(Ta, device=mels.device))
        audio_mask = torch.arange(Ta, device=mels.device)[None] < mel_lengths[:, None]
        text_mask = text_mask.bool()
        t = self.text_to_audio(text, audio, audio_mask)
        a = self.audio_to_text(audio, text, text_mask)
        return self.cls(torch.cat([masked_mean(t, text_mask), masked_mean(a, audio_mask)], dim=-1))


def build():
    torch.manual_seed(0)
    model = EmotionFusion().eval()
    text_mask = (torch.arange(10)[None] < torch.tensor([[10], [6], [8]])).long()
    text_ids = torch.randint(1, 500, (3, 10)) * text_mask
    mels = torch.randn(3, 16, 40)
    mel_lengths = torch.tensor([12, 16, 9])
    return model, (text_ids, text_mask, mels, mel_lengths)
