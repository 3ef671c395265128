import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def forward(self, q, k, v, mask=None):
        attn = torch.bmm(q, k.transpose(1, 2)) / self.temperature
        if mask is not None:
            attn = attn.masked_fill(mask, -1e-9)
        attn = F.softmax(attn, dim=2)
        return torch.bmm(attn, v)


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_model, d_k):
        super().__init__()
        self.n_head, self.d_k = n_head, d_k
        self.w_qs = nn.Linear(d_model, n_head * d_k)
        self.w_ks = nn.Linear(d_model, n_head * d_k)
        self.w_vs = nn.Linear(d_model, n_head * d_k)
        self.attention = ScaledDotProductAttention(temperature=math.sqrt(d_k))
        self.layer_norm = nn.LayerNorm(d_model)
        self.fc = nn.Linear(n_head * d_k, d_model)

    def forward(self, x, mask):
        sz_b, len_q, _ = x.size()
        residual = x
        q = self.w_qs(x).view(sz_b, len_q, self.n_head, self.d_k).permute(2, 0, 1, 3).reshape(-1, len_q, self.d_k)
        k = self.w_ks(x).view(sz_b, len_q, self.n_head, self.d_k).permute(2, 0, 1, 3).reshape(-1, len_q, self.d_k)
        v = self.w_vs(x).view(sz_b, len_q, self.n_head, self.d_k).permute(2, 0, 1, 3).reshape(-1, len_q, self.d_k)
        mask = mask.repeat(self.n_head, 1, 1)  # (n*b) x .. x ..
        out = self.attention(q, k, v, mask=mask)
        out = out.view(self.n_head, sz_b, len_q, self.d_k).permute(1, 2, 0, 3).reshape(sz_b, len_q, -1)
        return self.layer_norm(self.fc(out) + residual)


class PhonemeEncoder(nn.Module):
    def __init__(self, n_src_vocab=30, d_model=32, n_head=2, n_layers=2):
        super().__init__()
        self.src_word_emb = nn.Embedding(n_src_vocab, d_model, padding_idx=0)
        self.position_enc = nn.Parameter(torch.randn(1, 64, d_model) * 0.1, requires_grad=False)
        self.layers = nn.ModuleList(MultiHeadAttention(n_head, d_model, d_model // n_head) for _ in range(n_layers))
        self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))
                                 for _ in range(n_layers))
        self.variance = nn.Linear(d_model, 3)  # duration / pitch / energy

    def forward(self, src_seq, mask):
        # mask: True at padding
        slf_attn_mask = mask.unsqueeze(1).expand(-1, src_seq.size(1), -1)
        x = self.src_word_emb(src_seq) + self.position_enc[:, : src_seq.size(1)]
        for attn, ffn in zip(self.layers, self.ffn):
            x = attn(x, slf_attn_mask)
            x = (x + ffn(x)).masked_fill(mask.unsqueeze(-1), 0)
        return self.variance(x)


def build():
    torch.manual_seed(0)
    model = PhonemeEncoder().eval()
    lens = torch.tensor([9, 6, 4])
    src = torch.zeros(3, 9, dtype=torch.long)
    for b, n in enumerate(lens.tolist()):
        src[b, :n] = torch.randint(1, 30, (n,))
    mask = torch.arange(9)[None] >= lens[:, None]
    return model, (src, mask)
