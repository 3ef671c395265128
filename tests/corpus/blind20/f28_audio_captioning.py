"""Automated audio captioning (DCASE task 6 style): log-mel encoder + Transformer caption decoder.

Clips of different durations are padded to the longest clip; the encoder gets a padding mask from
the frame counts and the decoder's cross attention ignores the padded frames. SpecAugment
(time and frequency masking, Park et al., 2019) regularizes the encoder input.
"""
import torch
import torch.nn as nn


class SpecAugment(nn.Module):
    def __init__(self, time_width=4, freq_width=6, n_time=2, n_freq=2):
        super().__init__()
        self.time_width, self.freq_width, self.n_time, self.n_freq = time_width, freq_width, n_time, n_freq

    def forward(self, mel, lengths):
        B, T, F = mel.shape
        mel = mel.clone()
        for b in range(B):
            for _ in range(self.n_time):
                w = int(torch.randint(0, self.time_width + 1, ()))
                t0 = int(torch.randint(0, max(1, int(lengths[b]) - w), ()))
                mel[b, t0:t0 + w] = 0.0
            for _ in range(self.n_freq):
                w = int(torch.randint(0, self.freq_width + 1, ()))
                f0 = int(torch.randint(0, F - w, ()))
                mel[b, :, f0:f0 + w] = 0.0
        return mel


class AudioCaptioner(nn.Module):
    def __init__(self, n_mels=32, vocab=300, dim=32, heads=4, max_frames=64, max_words=32, spec_augment=True):
        super().__init__()
        self.spec_augment = spec_augment
        self.augment = SpecAugment()
        self.frame_proj = nn.Sequential(nn.Linear(n_mels, dim), nn.GELU(), nn.Linear(dim, dim))
        self.frame_pos = nn.Parameter(torch.randn(1, max_frames, dim) * 0.02)
        enc = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc, 2, enable_nested_tensor=False)
        self.word_emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.word_pos = nn.Parameter(torch.randn(1, max_words, dim) * 0.02)
        dec = nn.TransformerDecoderLayer(dim, heads, 4 * dim, dropout=0.1, batch_first=True)
        self.decoder = nn.TransformerDecoder(dec, 2)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, mel, mel_lengths, caption_in):
        B, T, _ = mel.shape
        if self.spec_augment:
            mel = self.augment(mel, mel_lengths)
        frame_pad = torch.arange(T, device=mel.device)[None, :] >= mel_lengths[:, None]
        memory = self.encoder(self.frame_proj(mel) + self.frame_pos[:, :T], src_key_padding_mask=frame_pad)
        L = caption_in.size(1)
        causal = torch.ones(L, L, dtype=torch.bool, device=mel.device).triu(1)
        y = self.word_emb(caption_in) + self.word_pos[:, :L]
        h = self.decoder(y, memory, tgt_mask=causal, memory_key_padding_mask=frame_pad)
        return self.lm_head(h)


def build():
    torch.manual_seed(0)
    model = AudioCaptioner().eval()
    mel = torch.randn(2, 24, 32)
    mel_lengths = torch.tensor([24, 17])
    caption_in = torch.randint(3, 300, (2, 10))
    caption_in[:, 0] = 1
    return model, (mel, mel_lengths, caption_in)
