import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def forward(self, q, k, v, pad_mask):
        d_k = q.size(-1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
        mask = pad_mask.unsqueeze(1).unsqueeze(-1)
        scores = scores.masked_fill(mask, -1e9)
        attn = F.softmax(scores, dim=-1)
        return torch.matmul(attn, v)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head = n_head
        self.d_k = d_model // n_head
        self.w_qs = nn.Linear(d_model, d_model, bias=False)
        self.w_ks = nn.Linear(d_model, d_model, bias=False)
        self.w_vs = nn.Linear(d_model, d_model, bias=False)
        self.fc = nn.Linear(d_model, d_model, bias=False)
        self.attention = ScaledDotProductAttention()
        self.layer_norm = nn.LayerNorm(d_model, eps=1e-6)

    def forward(self, x, pad_mask):
        sz_b, len_q, _ = x.size()
        residual = x
        q = self.w_qs(x).view(sz_b, len_q, self.n_head, self.d_k).transpose(1, 2)
        k = self.w_ks(x).view(sz_b, len_q, self.n_head, self.d_k).transpose(1, 2)
        v = self.w_vs(x).view(sz_b, len_q, self.n_head, self.d_k).transpose(1, 2)
        out = self.attention(q, k, v, pad_mask)
        out = out.transpose(1, 2).contiguous().view(sz_b, len_q, -1)
        return self.layer_norm(self.fc(out) + residual)


class PositionwiseFeedForward(nn.Module):
    def __init__(self, d_in, d_hid):
        super().__init__()
        self.w_1 = nn.Linear(d_in, d_hid)
        self.w_2 = nn.Linear(d_hid, d_in)
        self.layer_norm = nn.LayerNorm(d_in, eps=1e-6)

    def forward(self, x):
        return self.layer_norm(self.w_2(F.relu(self.w_1(x))) + x)


class Encoder(nn.Module):
    def __init__(self, n_src_vocab=50, d_model=32, n_head=4, n_layers=2, pad_idx=0):
        super().__init__()
        self.pad_idx = pad_idx
        self.src_word_emb = nn.Embedding(n_src_vocab, d_model, padding_idx=pad_idx)
        self.position_enc = nn.Embedding(32, d_model)
        self.slf_attn = nn.ModuleList([MultiHeadAttention(d_model, n_head) for _ in range(n_layers)])
        self.pos_ffn = nn.ModuleList([PositionwiseFeedForward(d_model, 64) for _ in range(n_layers)])

    def forward(self, src_seq):
        pad_mask = src_seq == self.pad_idx
        x = self.src_word_emb(src_seq) + self.position_enc(torch.arange(src_seq.size(1)))
        for att, ff in zip(self.slf_attn, self.pos_ffn):
            x = ff(att(x, pad_mask))
        return x


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    src_seq = torch.tensor([[4, 18, 27, 9, 33, 0, 0], [12, 5, 41, 0, 0, 0, 0], [7, 8, 9, 10, 11, 12, 13]])
    return model, (src_seq,)
