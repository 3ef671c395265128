import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d, heads, causal):
        super().__init__()
        self.heads, self.causal = heads, causal
        self.q_proj, self.k_proj, self.v_proj, self.out_proj = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x, ctx=None, key_mask=None):
        ctx = x if ctx is None else ctx
        B, T, D = x.shape
        S = ctx.size(1)
        H = self.heads
        q = self.q_proj(x).view(B, T, H, -1).transpose(1, 2)
        k = self.k_proj(ctx).view(B, S, H, -1).transpose(1, 2)
        v = self.v_proj(ctx).view(B, S, H, -1).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
        if self.causal:
            scores = scores.masked_fill(torch.ones(T, S, dtype=torch.bool).triu(1), float("-inf"))
        if key_mask is not None:
            scores = scores.masked_fill(~key_mask[:, None, None, :], float("-inf"))
        ctx_vec = scores.softmax(-1) @ v  # B, H, T, dh
        return self.out_proj(ctx_vec.reshape(B, T, D))


class DecoderLayer(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.self_attn = Attention(d, heads, causal=True)
        self.cross_attn = Attention(d, heads, causal=False)
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, enc, text_mask):
        x = self.ln1(x + self.self_attn(x, key_mask=text_mask))
        x = self.ln2(x + self.cross_attn(x, enc))
        return self.ln3(x + self.ffn(x))


class TrOCRStyleDecoder(nn.Module):
    def __init__(self, vocab=40, d=32, layers=2, max_len=16, enc_dim=48):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=1)
        self.pos = nn.Embedding(max_len + 2, d)
        self.enc_proj = nn.Linear(enc_dim, d)
        self.layers = nn.ModuleList(DecoderLayer(d) for _ in range(layers))
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask, encoder_hidden_states):
        pos = torch.arange(input_ids.size(1)) + 2  # learned positions offset by 2
        x = self.embed(input_ids) * math.sqrt(self.embed.embedding_dim) + self.pos(pos)[None]
        enc = self.enc_proj(encoder_hidden_states)
        for layer in self.layers:
            x = layer(x, enc, attention_mask.bool())
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = TrOCRStyleDecoder().eval()
    ids = torch.full((2, 8), 1, dtype=torch.long)
    ids[:, 0] = 2
    ids[0, 1:] = torch.randint(3, 40, (7,))
    ids[1, 1:5] = torch.randint(3, 40, (4,))
    mask = (ids != 1).long()
    enc = torch.randn(2, 12, 48)  # image patch features from a vision encoder
    return model, (ids, mask, enc)
