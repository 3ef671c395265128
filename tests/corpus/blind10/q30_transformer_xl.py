import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalEmbedding(nn.Module):
    def __init__(self, demb):
        super().__init__()
        inv_freq = 1 / (10000 ** (torch.arange(0.0, demb, 2.0) / demb))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, pos_seq):
        sinusoid_inp = torch.outer(pos_seq, self.inv_freq)
        return torch.cat([sinusoid_inp.sin(), sinusoid_inp.cos()], dim=-1)


class RelPartialLearnableMultiHeadAttn(nn.Module):
    def __init__(self, n_head=4, d_model=32, d_head=8):
        super().__init__()
        self.n_head, self.d_head = n_head, d_head
        self.qkv_net = nn.Linear(d_model, 3 * n_head * d_head, bias=False)
        self.r_net = nn.Linear(d_model, n_head * d_head, bias=False)
        self.o_net = nn.Linear(n_head * d_head, d_model, bias=False)
        self.layer_norm = nn.LayerNorm(d_model)
        self.scale = 1 / (d_head ** 0.5)

    @staticmethod
    def _rel_shift(x):  # x: [B, H, qlen, klen]
        B, H, q, k = x.shape
        zero_pad = x.new_zeros(B, H, q, 1)
        x_padded = torch.cat([zero_pad, x], dim=-1).view(B, H, k + 1, q)
        return x_padded[:, :, 1:].view_as(x)

    def forward(self, w, r, r_w_bias, r_r_bias, mem):
        B, qlen, _ = w.shape
        cat = torch.cat([mem, w], dim=1)
        klen = cat.size(1)
        heads = self.qkv_net(cat).view(B, klen, 3, self.n_head, self.d_head)
        q = heads[:, -qlen:, 0].transpose(1, 2)
        k, v = heads[:, :, 1].transpose(1, 2), heads[:, :, 2].transpose(1, 2)
        r_k = self.r_net(r).view(klen, self.n_head, self.d_head)
        AC = torch.einsum("bhid,bhjd->bhij", q + r_w_bias[:, None], k)
        BD = self._rel_shift(torch.einsum("bhid,jhd->bhij", q + r_r_bias[:, None], r_k))
        score = (AC + BD) * self.scale
        mlen = klen - qlen
        dec_attn_mask = torch.triu(torch.ones(qlen, klen, dtype=torch.bool), diagonal=1 + mlen)
        score = score.masked_fill(dec_attn_mask, -float("inf"))
        prob = F.softmax(score, dim=-1)
        vec = torch.einsum("bhij,bhjd->bhid", prob, v).transpose(1, 2).reshape(B, qlen, -1)
        return self.layer_norm(w + self.o_net(vec))


class TransfoXL(nn.Module):
    def __init__(self, vocab=50, d=32, n_head=4, d_head=8, n_layer=2):
        super().__init__()
        self.word_emb = nn.Embedding(vocab, d)
        self.pos_emb = PositionalEmbedding(d)
        self.r_w_bias = nn.Parameter(torch.randn(n_head, d_head) * 0.02)
        self.r_r_bias = nn.Parameter(torch.randn(n_head, d_head) * 0.02)
        self.layers = nn.ModuleList(RelPartialLearnableMultiHeadAttn(n_head, d, d_head) for _ in range(n_layer))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d)) for _ in range(n_layer))
        self.lns = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layer))
        self.out = nn.Linear(d, vocab)

    def forward(self, tokens, mems):
        qlen = tokens.size(1)
        klen = mems[0].size(1) + qlen
        pos_seq = torch.arange(klen - 1, -1, -1.0)
        pos = self.pos_emb(pos_seq)
        h = self.word_emb(tokens)
        new_mems = []
        for layer, ff, ln, mem in zip(self.layers, self.ff, self.lns, mems):
            new_mems.append(torch.cat([mem, h], 1)[:, -mem.size(1):].detach())
            h = layer(h, pos, self.r_w_bias, self.r_r_bias, mem)
            h = ln(h + ff(h))
        return self.out(h), new_mems


def build():
    torch.manual_seed(0)
    model = TransfoXL().eval()
    mems = [torch.randn(2, 6, 32) for _ in range(2)]  # cached hidden states of the previous segment
    tokens = torch.randint(0, 50, (2, 8))
    return model, (tokens, mems)
