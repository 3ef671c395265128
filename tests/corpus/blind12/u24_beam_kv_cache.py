"""Beam search over a small decoder-only LM with a key/value cache.

The prompt is encoded once; its cache is copied for each of the K beams (rows are laid out
sample-major: row b*K + k is beam k of sample b). At every step the K best continuations of
each sample are chosen among its K*V candidates, and the cache rows are gathered from the
beams they extend. Beams of one sample legitimately share history; samples never mix.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, cache):
        N, T, D = x.shape
        q, k, v = self.qkv(x).view(N, T, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        S = k.size(2)
        att = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        qpos = torch.arange(S - T, S, device=x.device)[:, None]
        kpos = torch.arange(S, device=x.device)[None, :]
        att = att.masked_fill(kpos > qpos, float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(N, T, D)
        return self.proj(y), (k, v)


class TinyLM(nn.Module):
    def __init__(self, vocab=30, d=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_len, d)
        self.attn = nn.ModuleList([CachedAttention(d, heads) for _ in range(layers)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids, past=None):
        start = 0 if past is None else past[0][0].size(2)
        x = self.wte(ids) + self.wpe(torch.arange(start, start + ids.size(1), device=ids.device))
        new = []
        for i, (attn, mlp, ln1, ln2) in enumerate(zip(self.attn, self.mlp, self.ln1, self.ln2)):
            a, kv = attn(ln1(x), None if past is None else past[i])
            x = x + a
            x = x + mlp(ln2(x))
            new.append(kv)
        return self.head(self.ln_f(x))[:, -1], new


class BeamSearch(nn.Module):
    def __init__(self, lm, num_beams=3, max_new_tokens=4):
        super().__init__()
        self.lm, self.K, self.steps = lm, num_beams, max_new_tokens

    @staticmethod
    def reorder(past, rows):
        return [(k.index_select(0, rows), v.index_select(0, rows)) for k, v in past]

    def forward(self, prompt):
        B, K = prompt.size(0), self.K
        logits, past = self.lm(prompt)
        scores, tokens = F.log_softmax(logits, -1).topk(K, dim=-1)            # (B, K)
        past = self.reorder(past, torch.arange(B, device=prompt.device).repeat_interleave(K))
        seqs = tokens.reshape(B * K, 1)
        offsets = (torch.arange(B, device=prompt.device) * K)[:, None]
        for _ in range(self.steps - 1):
            logits, past = self.lm(seqs[:, -1:], past)
            V = logits.size(-1)
            cand = scores[..., None] + F.log_softmax(logits, -1).view(B, K, V)
            scores, flat = cand.view(B, K * V).topk(K, dim=-1)
            beam, token = flat // V, flat % V
            rows = (beam + offsets).view(-1)
            past = self.reorder(past, rows)
            seqs = torch.cat([seqs.index_select(0, rows), token.view(-1, 1)], dim=1)
        return scores, seqs.view(B, K, -1)


def build():
    torch.manual_seed(24)
    model = BeamSearch(TinyLM()).eval()
    prompt = torch.randint(0, 30, (3, 6))
    return model, (prompt,)
