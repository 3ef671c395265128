"""cosFormer encoder (Qin et al., 2022): linear attention with ReLU feature maps and a
cos-based re-weighting that favours nearby tokens, used for sentence classification.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CosformerAttention(nn.Module):
    def __init__(self, d, heads, max_len=64, eps=1e-6):
        super().__init__()
        self.h, self.max_len, self.eps = heads, max_len, eps
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.out_proj = nn.Linear(d, d)

    def forward(self, x, mask):
        B, N, D = x.shape
        q, k, v = (p(x).view(B, N, self.h, -1).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        m = mask[:, None, :, None].to(x.dtype)
        q, k = F.relu(q) * m, F.relu(k) * m
        idx = math.pi / 2 * torch.arange(1, N + 1, device=x.device, dtype=x.dtype) / self.max_len
        sin, cos = idx.sin()[:, None], idx.cos()[:, None]
        q_ = torch.cat([q * sin, q * cos], dim=-1)
        k_ = torch.cat([k * sin, k * cos], dim=-1)
        kv = torch.einsum("bhnd,bhne->bhde", k_, v)
        z = 1.0 / torch.einsum("bhnd,bhd->bhn", q_, k_.sum(dim=2))
        out = torch.einsum("bhnd,bhde,bhn->bhne", q_, kv, z)
        return self.out_proj(out.transpose(1, 2).reshape(B, N, D))


class Layer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn, self.ln1 = CosformerAttention(d, heads), nn.LayerNorm(d)
        self.ff, self.ln2 = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)), nn.LayerNorm(d)

    def forward(self, x, mask):
        x = self.ln1(x + self.attn(x, mask))
        return self.ln2(x + self.ff(x))


class CosformerClassifier(nn.Module):
    def __init__(self, vocab=150, d=32, heads=4, layers=2, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.layers = nn.ModuleList(Layer(d, heads) for _ in range(layers))
        self.cls = nn.Linear(d, n_classes)

    def forward(self, input_ids, attention_mask):
        x = self.emb(input_ids)
        for layer in self.layers:
            x = layer(x, attention_mask)
        w = attention_mask.unsqueeze(-1).to(x.dtype)
        return self.cls((x * w).sum(1) / w.sum(1))


def build():
    torch.manual_seed(0)
    model = CosformerClassifier().eval()
    lengths = torch.tensor([21, 16, 9])
    attention_mask = (torch.arange(21)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(1, 150, (3, 21)) * attention_mask
    return model, (input_ids, attention_mask)
