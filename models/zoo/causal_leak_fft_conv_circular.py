"""A causal LM whose long convolution runs in the frequency domain with FFT size T: the convolution is circular, and position t reads the tokens after it.

Multiplying two FFTs convolves circularly: with FFT size n, output t sums h[s] * u[(t - s) mod n].
With n = T nothing is padded, so for s > t the index wraps to T + t - s, a later position:
every output but the last reads the future through the filter's tail. The short conv1d
before it (padded kernel - 1, cut to the first T outputs) is causal. Fix: FFT size 2T
(`n = 2 * T`) and keep the first T outputs, `[..., :T]`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-leak",)


class FFTConvLM(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, max_len: int = 12, kernel: int = 3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.short = nn.Conv1d(d_model, d_model, kernel, padding=kernel - 1, groups=d_model)
        decay = torch.exp(-0.3 * torch.arange(max_len))
        self.filter = nn.Parameter(torch.randn(d_model, max_len) * decay)   # one long filter per channel
        self.skip = nn.Parameter(torch.randn(d_model))
        self.gate = nn.Linear(d_model, d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        T = ids.shape[1]
        x = self.embed(ids)
        u = self.short(x.transpose(1, 2))[..., :T]                          # (B, d, T)
        h = self.filter[:, :T]
        y = torch.fft.irfft(torch.fft.rfft(u, n=T) * torch.fft.rfft(h, n=T), n=T)  # BUG: causal-leak
        y = y + u * self.skip[:, None]
        y = y.transpose(1, 2) * torch.sigmoid(self.gate(x))
        return self.head(x + y)


def build():
    torch.manual_seed(0)
    return FFTConvLM().eval(), (torch.randint(0, 30, (2, 10)),)
