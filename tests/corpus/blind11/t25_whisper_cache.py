"""Whisper-style encoder/decoder: conv front end on log-mels, decoder with self-attention cache and cached cross-attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoids(length, channels, max_timescale=10000):
    log_inc = torch.log(torch.tensor(float(max_timescale))) / (channels // 2 - 1)
    inv = torch.exp(-log_inc * torch.arange(channels // 2))
    t = torch.arange(length)[:, None] * inv[None]
    return torch.cat([torch.sin(t), torch.cos(t)], dim=1)


class MHA(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.query, self.value, self.out = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim, bias=False)

    def split(self, x):
        return x.view(x.size(0), x.size(1), self.h, -1).transpose(1, 2)

    def forward(self, x, kv_source=None, cache=None, name=None, causal=False):
        q = self.split(self.query(x))
        if kv_source is not None:  # cross-attention: keys from the audio, computed once
            if name not in cache:
                cache[name] = (self.split(self.key(kv_source)), self.split(self.value(kv_source)))
            k, v = cache[name]
        else:
            k, v = self.split(self.key(x)), self.split(self.value(x))
            if cache is not None and name in cache:
                k = torch.cat([cache[name][0], k], dim=2)
                v = torch.cat([cache[name][1], v], dim=2)
            if cache is not None:
                cache[name] = (k, v)
        mask = None
        if causal:
            Tq, Tk = q.size(2), k.size(2)
            mask = torch.ones(Tq, Tk, dtype=torch.bool).tril(diagonal=Tk - Tq)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(x.size(0), x.size(1), -1))


class Block(nn.Module):
    def __init__(self, dim, heads, cross):
        super().__init__()
        self.attn, self.attn_ln = MHA(dim, heads), nn.LayerNorm(dim)
        self.cross_attn = MHA(dim, heads) if cross else None
        self.cross_ln = nn.LayerNorm(dim) if cross else None
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.mlp_ln = nn.LayerNorm(dim)

    def forward(self, x, xa=None, cache=None, idx=0):
        x = x + self.attn(self.attn_ln(x), cache=cache, name=f"self{idx}", causal=self.cross_attn is not None)
        if self.cross_attn is not None:
            x = x + self.cross_attn(self.cross_ln(x), xa, cache=cache, name=f"cross{idx}")
        return x + self.mlp(self.mlp_ln(x))


class TinyWhisper(nn.Module):
    def __init__(self, n_mels=8, dim=32, heads=4, vocab=50, n_ctx=24):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, dim, 3, padding=1)
        self.conv2 = nn.Conv1d(dim, dim, 3, stride=2, padding=1)
        self.register_buffer("positional_embedding", sinusoids(12, dim))
        self.enc = nn.ModuleList(Block(dim, heads, False) for _ in range(2))
        self.ln_post = nn.LayerNorm(dim)
        self.token_embedding = nn.Embedding(vocab, dim)
        self.dec_pos = nn.Parameter(torch.randn(n_ctx, dim) * 0.02)
        self.dec = nn.ModuleList(Block(dim, heads, True) for _ in range(2))
        self.ln = nn.LayerNorm(dim)

    def encode(self, mel):
        x = F.gelu(self.conv2(F.gelu(self.conv1(mel)))).permute(0, 2, 1)
        x = x + self.positional_embedding[: x.size(1)]
        for b in self.enc:
            x = b(x)
        return self.ln_post(x)

    def decode(self, tokens, xa, cache, offset):
        x = self.token_embedding(tokens) + self.dec_pos[offset : offset + tokens.size(1)]
        for i, b in enumerate(self.dec):
            x = b(x, xa, cache, i)
        return self.ln(x) @ self.token_embedding.weight.t()

    def forward(self, mel, tokens, prompt_len):
        """prompt (sot, language, task...) in one pass, then the transcript token by token"""
        xa, cache = self.encode(mel), {}
        logits = [self.decode(tokens[:, :prompt_len], xa, cache, 0)]
        for t in range(prompt_len, tokens.size(1)):
            logits.append(self.decode(tokens[:, t : t + 1], xa, cache, t))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    return TinyWhisper().eval(), (torch.randn(2, 8, 24), torch.randint(0, 50, (2, 10)), 4)
