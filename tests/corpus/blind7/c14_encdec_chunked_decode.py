import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, cache):
        B, Tq, D = x.shape
        q, k, v = self.qkv(x).view(B, Tq, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        if "k" in cache:
            k = torch.cat([cache["k"], k], dim=2)
            v = torch.cat([cache["v"], v], dim=2)
        cache["k"], cache["v"] = k, v
        past_len = k.shape[2] - Tq
        if past_len == 0:
            mask = torch.ones(Tq, Tq, dtype=torch.bool, device=x.device).tril()
        else:
            mask = None
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.o(out.transpose(1, 2).reshape(B, Tq, D))


class CrossAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, memory, memory_mask):
        B, Tq, D = x.shape
        S = memory.shape[1]
        q = self.q(x).view(B, Tq, self.h, -1).transpose(1, 2)
        k, v = self.kv(memory).view(B, S, 2, self.h, -1).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=memory_mask[:, None, None, :])
        return self.o(out.transpose(1, 2).reshape(B, Tq, D))


class DecoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.n1 = nn.LayerNorm(d)
        self.sa = CachedSelfAttention(d, heads)
        self.n2 = nn.LayerNorm(d)
        self.ca = CrossAttention(d, heads)
        self.n3 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))

    def forward(self, x, memory, memory_mask, cache):
        x = x + self.sa(self.n1(x), cache)
        x = x + self.ca(self.n2(x), memory, memory_mask)
        return x + self.ff(self.n3(x))


class Seq2Seq(nn.Module):
    def __init__(self, src_dim=20, d=32, heads=4, vocab=30, n_layers=2, chunk=3, max_len=32):
        super().__init__()
        self.chunk = chunk
        self.src_proj = nn.Linear(src_dim, d)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True), 1, enable_nested_tensor=False
        )
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList([DecoderLayer(d, heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab)

    def decode_step(self, tokens, offset, memory, memory_mask, caches):
        pos = torch.arange(offset, offset + tokens.shape[1], device=tokens.device)
        x = self.embed(tokens) + self.pos(pos)
        for layer, cache in zip(self.layers, caches):
            x = layer(x, memory, memory_mask, cache)
        return self.lm_head(self.norm(x))

    def forward(self, src, src_lens, tgt):
        S = src.shape[1]
        memory_mask = torch.arange(S, device=src.device)[None, :] < src_lens[:, None]
        memory = self.encoder(self.src_proj(src), src_key_padding_mask=~memory_mask)
        caches = [{} for _ in self.layers]
        logits = []
        for s in range(0, tgt.shape[1], self.chunk):
            logits.append(self.decode_step(tgt[:, s:s + self.chunk], s, memory, memory_mask, caches))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = Seq2Seq().eval()
    src = torch.randn(2, 7, 20)
    src_lens = torch.tensor([7, 5])
    tgt = torch.randint(0, 30, (2, 9))
    return model, (src, src_lens, tgt)
