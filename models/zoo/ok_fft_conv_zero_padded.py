"""A causal LM whose long convolution runs in the frequency domain with FFT size 2T (zero-padded, cut back to T), after a short causal conv1d: correct.

Multiplying two FFTs convolves circularly: with FFT size n, output t sums h[s] * u[(t - s) mod n].
With n = 2T both signals are zero-padded past T, so the wrapped terms (t - s < 0) read only
zeros and the first T outputs are the causal convolution `sum_{s <= t} h[s] u[t - s]`
(Hyena, H3). The short conv1d pads kernel - 1 on both sides and keeps the first T outputs,
which is left padding only: causal too.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


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
        n = 2 * T
        y = torch.fft.irfft(torch.fft.rfft(u, n=n) * torch.fft.rfft(h, n=n), n=n)[..., :T]
        y = y + u * self.skip[:, None]
        y = y.transpose(1, 2) * torch.sigmoid(self.gate(x))
        return self.head(x + y)


def build():
    torch.manual_seed(0)
    return FFTConvLM().eval(), (torch.randint(0, 30, (2, 10)),)
