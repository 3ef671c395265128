"""Audio event classifier: a channels-first front-end followed by a transformer encoder.

Log-mel features arrive channels-first, (B, n_mels, T), as produced by torchaudio. A 1x1
convolution mixes the mel bins into 16 channels, a LayerNorm normalises them, and the frames
are then handed to a batch-first transformer encoder. Clips are right padded; `lengths` gives
the number of real frames.
"""
import torch
import torch.nn as nn


class FrontEnd(nn.Module):
    def __init__(self, n_mels=24, channels=16):
        super().__init__()
        self.proj = nn.Conv1d(n_mels, channels, kernel_size=1)
        self.norm = nn.LayerNorm(channels)
        self.act = nn.GELU()

    def forward(self, mel):
        x = self.proj(mel)                   # (B, C, T)
        x = self.norm(x).transpose(1, 2)     # -> (B, T, C)
        return self.act(x)


class EventClassifier(nn.Module):
    def __init__(self, n_mels=24, channels=16, d_model=32, heads=4, n_events=8, max_frames=64):
        super().__init__()
        self.frontend = FrontEnd(n_mels, channels)
        self.up = nn.Linear(channels, d_model)
        self.pos = nn.Parameter(torch.randn(1, max_frames, d_model) * 0.02)
        layer = nn.TransformerEncoderLayer(d_model, heads, 2 * d_model, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, n_events)

    def forward(self, mel, lengths):
        T = mel.size(-1)
        pad = torch.arange(T, device=mel.device)[None] >= lengths[:, None]
        x = self.up(self.frontend(mel)) + self.pos[:, :T]
        x = self.encoder(x, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        return self.head((x * keep).sum(1) / keep.sum(1))


def build():
    torch.manual_seed(37)
    model = EventClassifier().eval()
    lengths = torch.tensor([16, 11, 6])
    mel = torch.randn(3, 24, 16)
    return model, (mel, lengths)
