"""Speculative decoding, verification step (Leviathan et al., 2023): the target model
prefills the prompt into its KV cache, then scores all K draft tokens in one forward pass
whose queries sit after the cached keys. Returns the target logits for the K+1 positions
that decide acceptance (greedy: accept while argmax == draft).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, cache, past_len):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        i = torch.arange(T, device=x.device)[:, None] + past_len
        j = torch.arange(k.size(2), device=x.device)[None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=j <= i)
        return self.proj(y.transpose(1, 2).reshape(B, T, D)), (k, v)


class TargetLM(nn.Module):
    def __init__(self, vocab=70, d=32, heads=4, layers=2, max_len=64):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(max_len, d)
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.attn = nn.ModuleList(CachedAttention(d, heads) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers))
        self.ln_f, self.head = nn.LayerNorm(d), nn.Linear(d, vocab, bias=False)

    def forward(self, ids, caches=None, past_len=0):
        pos = torch.arange(past_len, past_len + ids.size(1), device=ids.device)
        x = self.tok(ids) + self.pos(pos)
        new = []
        for l in range(len(self.attn)):
            h, kv = self.attn[l](self.ln1[l](x), None if caches is None else caches[l], past_len)
            x = x + h
            x = x + self.mlp[l](self.ln2[l](x))
            new.append(kv)
        return self.head(self.ln_f(x)), new


class SpeculativeVerifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.target = TargetLM()

    def forward(self, prompt_ids, draft_ids):
        prefill_logits, caches = self.target(prompt_ids)
        draft_logits, _ = self.target(draft_ids, caches, past_len=prompt_ids.size(1))
        return torch.cat([prefill_logits[:, -1:], draft_logits], dim=1)   # (B, K + 1, V)

    @staticmethod
    def accepted(logits, draft_ids):
        agree = (logits[:, :-1].argmax(-1) == draft_ids).long()
        return agree.cumprod(dim=1).sum(dim=1)


def build():
    torch.manual_seed(0)
    model = SpeculativeVerifier().eval()
    prompt_ids = torch.randint(0, 70, (3, 10))
    draft_ids = torch.randint(0, 70, (3, 5))
    return model, (prompt_ids, draft_ids)
