"""CLAP-style contrastive audio-text model.

An audio encoder over log-mel frames (with a frame mask for clips of different lengths) and a
text encoder over caption tokens are mean-pooled over their valid steps, projected, normalised,
and compared with a learned temperature. The output is the (B_audio, B_text) similarity matrix
used by the symmetric InfoNCE loss.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def masked_mean(x, valid):
    w = valid.unsqueeze(-1).to(x.dtype)
    return (x * w).sum(1) / w.sum(1).clamp(min=1.0)


class AudioEncoder(nn.Module):
    def __init__(self, n_mels=16, dim=32, heads=4, layers=2, max_frames=32):
        super().__init__()
        self.proj = nn.Linear(n_mels, dim)
        self.pos = nn.Parameter(torch.randn(1, max_frames, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, mel, frame_mask):
        x = self.proj(mel) + self.pos[:, : mel.size(1)]
        x = self.encoder(x, src_key_padding_mask=~frame_mask)
        return masked_mean(x, frame_mask)


class TextEncoder(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, ids):
        valid = ids.ne(0)
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        x = self.encoder(x, src_key_padding_mask=~valid)
        return masked_mean(x, valid)


class CLAP(nn.Module):
    def __init__(self, dim=32, embed_dim=24):
        super().__init__()
        self.audio = AudioEncoder(dim=dim)
        self.text = TextEncoder(dim=dim)
        self.audio_proj = nn.Sequential(nn.Linear(dim, embed_dim), nn.ReLU(), nn.Linear(embed_dim, embed_dim))
        self.text_proj = nn.Sequential(nn.Linear(dim, embed_dim), nn.ReLU(), nn.Linear(embed_dim, embed_dim))
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, mel, frame_mask, caption_ids):
        a = F.normalize(self.audio_proj(self.audio(mel, frame_mask)), dim=-1)
        t = F.normalize(self.text_proj(self.text(caption_ids)), dim=-1)
        return self.logit_scale.exp() * a @ t.t()


def build():
    torch.manual_seed(0)
    model = CLAP().eval()
    frames = torch.tensor([30, 22, 26])
    frame_mask = torch.arange(30)[None] < frames[:, None]
    mel = torch.randn(3, 30, 16).masked_fill(~frame_mask[..., None], 0.0)
    cap_len = torch.tensor([9, 12, 6])
    caption_ids = torch.randint(1, 100, (3, 12)).masked_fill(torch.arange(12)[None] >= cap_len[:, None], 0)
    return model, (mel, frame_mask, caption_ids)
