"""Lyrics-to-audio alignment: frame-level phoneme posteriors with attention over the lyrics.

Mel frames and the phoneme sequence of the lyrics are encoded separately; every frame attends to
the phonemes, and the frame classifier sees the frame together with its lyrics context. The
attention map doubles as a soft alignment for the DTW post-processing.
"""
import math

import torch
import torch.nn as nn


def length_mask(lengths, T):
    return torch.arange(T, device=lengths.device)[None, :] < lengths[:, None]


class AlignmentAttention(nn.Module):
    def __init__(self, dim, att_dim=24):
        super().__init__()
        self.q = nn.Linear(dim, att_dim, bias=False)
        self.k = nn.Linear(dim, att_dim, bias=False)
        self.v = nn.Linear(dim, dim)

    def forward(self, frames, phonemes, ph_mask):
        scores = torch.bmm(self.q(frames), self.k(phonemes).transpose(1, 2)) / math.sqrt(self.q.out_features)
        scores = scores.masked_fill(~ph_mask[:, None, :], torch.finfo(scores.dtype).min)
        align = scores.softmax(dim=1)
        return torch.bmm(align, self.v(phonemes)), align


class LyricsAligner(nn.Module):
    def __init__(self, n_mels=40, n_phones=42, dim=32, heads=4, max_phones=64):
        super().__init__()
        self.frame_proj = nn.Linear(n_mels, dim)
        self.audio_enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True), 2,
            enable_nested_tensor=False)
        self.ph_emb = nn.Embedding(n_phones + 1, dim, padding_idx=0)
        self.ph_pos = nn.Embedding(max_phones, dim)
        self.text_enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True), 1,
            enable_nested_tensor=False)
        self.attend = AlignmentAttention(dim)
        self.classifier = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, n_phones + 1))

    def forward(self, mels, mel_lengths, phonemes, ph_lengths):
        a_mask = length_mask(mel_lengths, mels.size(1))
        p_mask = length_mask(ph_lengths, phonemes.size(1))
        frames = self.audio_enc(self.frame_proj(mels), src_key_padding_mask=~a_mask)
        pos = torch.arange(phonemes.size(1), device=phonemes.device)
        text = self.text_enc(self.ph_emb(phonemes) + self.ph_pos(pos), src_key_padding_mask=~p_mask)
        ctx, _ = self.attend(frames, text, p_mask)
        return self.classifier(torch.cat([frames, ctx], dim=-1))   # (B, frames, phones + blank)


def build():
    torch.manual_seed(0)
    model = LyricsAligner().eval()
    mels = torch.randn(3, 20, 40)
    mel_lengths = torch.tensor([20, 17, 12])
    phonemes = torch.randint(1, 43, (3, 9))
    ph_lengths = torch.tensor([7, 9, 5])
    return model, (mels, mel_lengths, phonemes, ph_lengths)
