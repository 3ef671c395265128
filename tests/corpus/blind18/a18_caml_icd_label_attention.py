"""CAML: convolutional attention for multi-label classification (Mullenbach et al., 2018).

A single convolution layer encodes the note, then each ICD code attends over the convolved
positions with its own query vector u_l, and is scored from its attended document vector.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CAML(nn.Module):
    def __init__(self, vocab=500, emb_dim=32, filters=48, kernel=5, n_codes=20):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb_dim, padding_idx=0)
        self.conv = nn.Conv1d(emb_dim, filters, kernel_size=kernel, padding=kernel // 2)
        self.U = nn.Linear(filters, n_codes, bias=False)
        self.final = nn.Linear(filters, n_codes)
        nn.init.xavier_uniform_(self.U.weight)

    def forward(self, text):  # (B, T), notes truncated to a fixed length
        x = self.embed(text).transpose(1, 2)
        H = torch.tanh(self.conv(x)).transpose(1, 2)  # (B, T, filters)
        alpha = F.softmax(self.U.weight.matmul(H.transpose(1, 2)), dim=1)  # (B, codes, T)
        m = alpha.matmul(H)  # (B, codes, filters)
        y = self.final.weight.mul(m).sum(dim=2).add(self.final.bias)
        return y


def build():
    torch.manual_seed(0)
    model = CAML().eval()
    text = torch.randint(1, 500, (2, 30))
    return model, (text,)
