"""RETAIN (Choi et al., 2016): interpretable prediction from EHR visits with reverse-time
attention.

Visits are multi-hot code vectors. The two attention RNNs read the visits from the most
recent one backwards, which mimics how a physician reviews a chart. Patients have different
numbers of visits; sequences are right-padded and `lengths` holds the number of real visits.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def reverse_padded(x, lengths):
    """Reverse the first lengths[b] steps of every sequence, keeping padding at the end."""
    B, T = x.shape[:2]
    t = torch.arange(T, device=x.device).unsqueeze(0)
    idx = (lengths.unsqueeze(1) - 1 - t)
    idx = torch.where(idx >= 0, idx, t)
    return x.gather(1, idx.view(B, T, *([1] * (x.dim() - 2))).expand_as(x))


class RETAIN(nn.Module):
    def __init__(self, n_codes=60, d=32, n_out=1):
        super().__init__()
        self.embed = nn.Linear(n_codes, d, bias=False)
        self.rnn_alpha = nn.GRU(d, d, batch_first=True)
        self.rnn_beta = nn.GRU(d, d, batch_first=True)
        self.w_alpha = nn.Linear(d, 1)
        self.W_beta = nn.Linear(d, d)
        self.out = nn.Linear(d, n_out)

    def forward(self, visits, lengths):  # visits: (B, T, n_codes)
        B, T, _ = visits.shape
        v = self.embed(visits)
        v_rev = reverse_padded(v, lengths)
        g, _ = self.rnn_alpha(v_rev)
        h, _ = self.rnn_beta(v_rev)
        g, h = reverse_padded(g, lengths), reverse_padded(h, lengths)
        real = torch.arange(T, device=visits.device).unsqueeze(0) < lengths.unsqueeze(1)
        e = self.w_alpha(g).squeeze(-1).masked_fill(~real, float("-inf"))
        alpha = torch.softmax(e, dim=1)
        beta = torch.tanh(self.W_beta(h))
        context = (alpha.unsqueeze(-1) * beta * v).sum(dim=1)
        return torch.sigmoid(self.out(context)).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = RETAIN().eval()
    visits = (torch.rand(3, 10, 60) < 0.08).float()
    lengths = torch.tensor([10, 6, 3])
    for b, n in enumerate(lengths.tolist()):
        visits[b, n:] = 0.0
    return model, (visits, lengths)
