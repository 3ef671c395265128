import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, d=32, n_head=4):
        super().__init__()
        self.n_head, self.hd = n_head, d // n_head
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, cache_k, cache_v):
        B, K, D = x.shape
        P = cache_k.size(2)
        q, k, v = self.qkv(x).split(D, dim=-1)
        q, k, v = (t.view(B, K, self.n_head, self.hd).transpose(1, 2) for t in (q, k, v))
        k = torch.cat([cache_k, k], dim=2)
        v = torch.cat([cache_v, v], dim=2)
        # draft token i (absolute position P + i) may see the whole cache and drafts 0..i
        keep = torch.ones(K, P + K, dtype=torch.bool).tril(diagonal=P + 1)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        return self.proj(y.transpose(1, 2).reshape(B, K, D)), (k, v)


class TargetModel(nn.Module):
    def __init__(self, vocab=64, d=32, layers=2):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(64, d)
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.attn = nn.ModuleList(CachedAttention(d) for _ in range(layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, draft_ids, past):
        P = past[0][0].size(2)
        pos = torch.arange(P, P + draft_ids.size(1))
        x = self.wte(draft_ids) + self.wpe(pos)[None]
        new_past = []
        for ln1, ln2, attn, mlp, (ck, cv) in zip(self.ln1, self.ln2, self.attn, self.mlp, past):
            a, kv = attn(ln1(x), ck, cv)
            x = x + a
            x = x + mlp(ln2(x))
            new_past.append(kv)
        return self.lm_head(self.ln_f(x)), new_past


def verify(model, draft_ids, past):
    """Greedy speculative verification: accept the longest prefix of drafts the target agrees with."""
    logits, new_past = model(draft_ids, past)
    pred = logits.argmax(-1)
    agree = (pred[:, :-1] == draft_ids[:, 1:]).long().cumprod(dim=1)
    return logits, agree.sum(1)


class Verifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.target = TargetModel()

    def forward(self, draft_ids, past):
        return verify(self.target, draft_ids, past)


def build():
    torch.manual_seed(0)
    model = Verifier().eval()
    B, P, K = 2, 6, 5
    prompt = torch.randint(0, 64, (B, P))
    with torch.no_grad():  # prefill the KV cache with the prompt
        empty = [(torch.zeros(B, 4, 0, 8), torch.zeros(B, 4, 0, 8)) for _ in range(2)]
        _, past = model.target(prompt, empty)
    draft_ids = torch.randint(0, 64, (B, K))
    return model, (draft_ids, past)
