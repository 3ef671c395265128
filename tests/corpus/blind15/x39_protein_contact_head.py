"""ESM-style protein language model with an unsupervised contact head (Rao et al., 2021):
the attention maps of every layer and head are symmetrized, corrected with APC (average
product correction) and combined by a logistic regression into a residue contact map.
Tokens: 0 <cls>, 1 <pad>, 2 <eos>, 3 <mask>, 4.. amino acids.
"""
import torch
import torch.nn as nn


def apc(x):
    a1 = x.sum(-1, keepdim=True)
    a2 = x.sum(-2, keepdim=True)
    a12 = x.sum((-1, -2), keepdim=True)
    return x - a1 * a2 / a12


class SelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, key_pad):
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        scores = torch.einsum("bhid,bhjd->bhij", q, k) * self.dh ** -0.5
        scores = scores.masked_fill(key_pad[:, None, None, :], float("-inf"))
        probs = scores.softmax(dim=-1)
        y = torch.einsum("bhij,bhjd->bhid", probs, v).transpose(1, 2).reshape(B, L, D)
        return self.out(y), probs


class Layer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d), SelfAttention(d, heads)
        self.ln2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, key_pad):
        h, probs = self.attn(self.ln1(x), key_pad)
        x = x + h
        return x + self.ff(self.ln2(x)), probs


class ProteinLM(nn.Module):
    cls_idx, pad_idx, eos_idx = 0, 1, 2

    def __init__(self, vocab=24, d=32, heads=4, layers=2, max_len=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=self.pad_idx)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(Layer(d, heads) for _ in range(layers))
        self.contact_regression = nn.Linear(layers * heads, 1)

    def forward(self, tokens, attention_mask):
        key_pad = attention_mask == 0
        x = self.embed(tokens) + self.pos(torch.arange(tokens.size(1), device=tokens.device))
        maps = []
        for layer in self.layers:
            x, probs = layer(x, key_pad)
            maps.append(probs)
        attn = torch.cat(maps, dim=1)                                   # (B, layers*heads, L, L)
        residue = attention_mask.bool() & (tokens != self.cls_idx) & (tokens != self.eos_idx)
        attn = attn * (residue[:, None, :, None] & residue[:, None, None, :])
        attn = apc(attn + attn.transpose(-1, -2))
        return torch.sigmoid(self.contact_regression(attn.permute(0, 2, 3, 1)).squeeze(-1))


def build():
    torch.manual_seed(0)
    model = ProteinLM().eval()
    lengths = torch.tensor([20, 14, 9])                                 # with <cls> and <eos>
    attention_mask = (torch.arange(20)[None, :] < lengths[:, None]).long()
    tokens = torch.randint(4, 24, (3, 20))
    tokens[:, 0] = ProteinLM.cls_idx
    tokens[torch.arange(3), lengths - 1] = ProteinLM.eos_idx
    tokens = tokens.masked_fill(attention_mask == 0, ProteinLM.pad_idx)
    return model, (tokens, attention_mask)
