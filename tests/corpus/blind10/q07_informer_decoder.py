import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalEmbedding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).float().unsqueeze(1)
        div_term = (torch.arange(0, d_model, 2).float() * -(math.log(10000.0) / d_model)).exp()
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return self.pe[:, : x.size(1)]


class DataEmbedding(nn.Module):
    def __init__(self, c_in, d_model, n_time_feats=2):
        super().__init__()
        self.value = nn.Linear(c_in, d_model)
        self.temporal = nn.Linear(n_time_feats, d_model, bias=False)
        self.position = PositionalEmbedding(d_model)

    def forward(self, x, x_mark):
        return self.value(x) + self.temporal(x_mark) + self.position(x)


class AttentionLayer(nn.Module):
    def __init__(self, d_model, n_heads, mask_flag):
        super().__init__()
        self.h, self.mask_flag = n_heads, mask_flag
        self.query_projection = nn.Linear(d_model, d_model)
        self.key_projection = nn.Linear(d_model, d_model)
        self.value_projection = nn.Linear(d_model, d_model)
        self.out_projection = nn.Linear(d_model, d_model)

    def forward(self, queries, keys, values):
        B, L, _ = queries.shape
        _, S, _ = keys.shape
        H = self.h
        q = self.query_projection(queries).view(B, L, H, -1)
        k = self.key_projection(keys).view(B, S, H, -1)
        v = self.value_projection(values).view(B, S, H, -1)
        scale = 1.0 / math.sqrt(q.shape[-1])
        scores = torch.einsum("blhe,bshe->bhls", q, k)
        if self.mask_flag:
            causal = torch.triu(torch.ones(L, S, dtype=torch.bool, device=q.device), diagonal=1)
            scores.masked_fill_(causal, -float("inf"))
        A = torch.softmax(scale * scores, dim=-1)
        out = torch.einsum("bhls,bshd->blhd", A, v).contiguous()
        return self.out_projection(out.view(B, L, -1))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff):
        super().__init__()
        self.self_attention = AttentionLayer(d_model, n_heads, mask_flag=True)
        self.cross_attention = AttentionLayer(d_model, n_heads, mask_flag=False)
        self.conv1 = nn.Conv1d(d_model, d_ff, 1)
        self.conv2 = nn.Conv1d(d_ff, d_model, 1)
        self.norm1, self.norm2, self.norm3 = (nn.LayerNorm(d_model) for _ in range(3))

    def forward(self, x, cross):
        x = self.norm1(x + self.self_attention(x, x, x))
        x = self.norm2(x + self.cross_attention(x, cross, cross))
        y = self.conv2(F.gelu(self.conv1(x.transpose(-1, 1)))).transpose(-1, 1)
        return self.norm3(x + y)


class InformerDecoder(nn.Module):
    def __init__(self, c_in=3, d_model=32, n_heads=4, d_layers=2, d_ff=64):
        super().__init__()
        self.embedding = DataEmbedding(c_in, d_model)
        self.layers = nn.ModuleList(DecoderLayer(d_model, n_heads, d_ff) for _ in range(d_layers))
        self.norm = nn.LayerNorm(d_model)
        self.projection = nn.Linear(d_model, c_in)

    def forward(self, x_dec, x_mark_dec, enc_out):
        x = self.embedding(x_dec, x_mark_dec)
        for layer in self.layers:
            x = layer(x, enc_out)
        return self.projection(self.norm(x))


def build():
    torch.manual_seed(0)
    model = InformerDecoder().eval()
    B, label_len, pred_len, enc_len = 2, 6, 6, 16
    history = torch.randn(B, label_len, 3).cumsum(1)
    x_dec = torch.cat([history, torch.zeros(B, pred_len, 3)], dim=1)  # start token + placeholders
    t = torch.arange(label_len + pred_len).float()
    x_mark = torch.stack([torch.sin(t / 24), torch.cos(t / 24)], -1).expand(B, -1, -1)
    enc_out = torch.randn(B, enc_len, 32)
    return model, (x_dec, x_mark, enc_out)
