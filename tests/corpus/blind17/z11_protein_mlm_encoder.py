"""Small protein masked language model over amino-acid tokens.

Sequences of different lengths are right-padded with <pad>; the model predicts masked residues
and returns per-residue logits over the 25-token alphabet.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ALPHABET = ["<cls>", "<pad>", "<eos>", "<mask>"] + list("LAGVSERTIDPKQNFYMHWCX")
PAD = ALPHABET.index("<pad>")


class ResidueSelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, padding_mask):
        bsz, L, E = x.shape
        q = self.q_proj(x) * self.scaling
        q = q.contiguous().view(bsz, self.num_heads, L, self.head_dim)
        k = self.k_proj(x).view(bsz, L, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(bsz, L, self.num_heads, self.head_dim).transpose(1, 2)
        attn = torch.matmul(q, k.transpose(2, 3))
        attn = attn.masked_fill(padding_mask[:, None, None, :], float("-inf"))
        attn = F.softmax(attn, dim=-1)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(bsz, L, E)
        return self.out_proj(out)


class ProteinLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn_layer_norm = nn.LayerNorm(dim)
        self.self_attn = ResidueSelfAttention(dim, heads)
        self.final_layer_norm = nn.LayerNorm(dim)
        self.fc1, self.fc2 = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

    def forward(self, x, padding_mask):
        x = x + self.self_attn(self.self_attn_layer_norm(x), padding_mask)
        return x + self.fc2(F.gelu(self.fc1(self.final_layer_norm(x))))


class ProteinMLM(nn.Module):
    def __init__(self, dim=48, heads=4, layers=2, max_len=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(len(ALPHABET), dim, padding_idx=PAD)
        self.embed_positions = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([ProteinLayer(dim, heads) for _ in range(layers)])
        self.emb_layer_norm_after = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, len(ALPHABET))

    def forward(self, tokens):
        padding_mask = tokens.eq(PAD)
        pos = torch.arange(tokens.size(1), device=tokens.device)
        x = self.embed_tokens(tokens) + self.embed_positions(pos)
        x = x * (1 - padding_mask.unsqueeze(-1).type_as(x))
        for layer in self.layers:
            x = layer(x, padding_mask)
        return self.lm_head(self.emb_layer_norm_after(x))


def build():
    torch.manual_seed(0)
    model = ProteinMLM().eval()
    toks = torch.randint(4, len(ALPHABET), (3, 16))
    toks[:, 0] = 0
    for b, n in enumerate([16, 11, 7]):
        toks[b, n - 1] = 2
        toks[b, n:] = PAD
    return model, (toks,)
