import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv1dSubsampling(nn.Module):
    def __init__(self, in_dim, d):
        super().__init__()
        self.conv1 = nn.Conv1d(in_dim, d, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv1d(d, d, kernel_size=3, stride=1, padding=1)

    @staticmethod
    def out_lengths(lengths):
        return (lengths + 2 * 1 - 3) // 2 + 1

    def forward(self, x, lengths):
        keep = torch.arange(x.shape[1], device=x.device)[None, :] < lengths[:, None]
        x = x.masked_fill(~keep.unsqueeze(-1), 0.0)
        x = F.gelu(self.conv1(x.transpose(1, 2)))
        lengths = self.out_lengths(lengths)
        keep = torch.arange(x.shape[-1], device=x.device)[None, :] < lengths[:, None]
        x = x.masked_fill(~keep.unsqueeze(1), 0.0)
        x = F.gelu(self.conv2(x)).transpose(1, 2)
        return x, lengths


class EncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.norm1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))

    def forward(self, x, keep):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-2, -1)) / (D // self.h) ** 0.5
        s = s.masked_fill(~keep[:, None, None, :], -1e9)
        a = s.softmax(-1) @ v
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        return x + self.ff(self.norm2(x))


class CTCModel(nn.Module):
    def __init__(self, n_mels=16, d=32, heads=4, n_layers=2, vocab=20, n_speakers=5):
        super().__init__()
        self.subsample = Conv1dSubsampling(n_mels, d)
        self.layers = nn.ModuleList([EncoderLayer(d, heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d)
        self.ctc_head = nn.Linear(d, vocab)
        self.utt_head = nn.Linear(d, n_speakers)

    def forward(self, feats, feat_lens):
        x, lens = self.subsample(feats, feat_lens)
        keep = torch.arange(x.shape[1], device=x.device)[None, :] < lens[:, None]
        for layer in self.layers:
            x = layer(x, keep)
        x = self.norm(x)
        log_probs = self.ctc_head(x).log_softmax(-1)
        w = keep.unsqueeze(-1).to(x.dtype)
        utt = (x * w).sum(1) / w.sum(1)
        return log_probs, self.utt_head(utt), lens


def build():
    torch.manual_seed(0)
    model = CTCModel().eval()
    feats = torch.randn(2, 12, 16)
    feat_lens = torch.tensor([12, 7])
    return model, (feats, feat_lens)
