"""Multi-query decoder run token by token with a sliding-window KV cache: entries older than the
window are evicted, so no attention mask is needed at decode time."""
import torch
import torch.nn as nn


class MQADecodeAttention(nn.Module):
    def __init__(self, d_model, n_heads, window):
        super().__init__()
        self.h, self.dh, self.window = n_heads, d_model // n_heads, window
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, self.dh, bias=False)
        self.v_proj = nn.Linear(d_model, self.dh, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, cache):
        B = x.size(0)  # x: (B, 1, d) -- one new token
        q = self.q_proj(x).view(B, 1, self.h, self.dh).transpose(1, 2)  # (B, H, 1, dh)
        cache["k"] = torch.cat([cache["k"], self.k_proj(x)], dim=1)[:, -self.window:]
        cache["v"] = torch.cat([cache["v"], self.v_proj(x)], dim=1)[:, -self.window:]
        k = cache["k"].unsqueeze(1)  # (B, 1, L, dh), shared by all query heads
        v = cache["v"].unsqueeze(1)
        scores = q @ k.transpose(-2, -1) / self.dh ** 0.5  # (B, H, 1, L)
        out = scores.softmax(dim=-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(B, 1, self.h * self.dh))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, window):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.attn = MQADecodeAttention(d_model, n_heads, window)
        self.norm2 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, 3 * d_model), nn.SiLU(), nn.Linear(3 * d_model, d_model))

    def forward(self, x, cache):
        x = x + self.attn(self.norm1(x), cache)
        return x + self.ffn(self.norm2(x))


class StreamingDecoder(nn.Module):
    def __init__(self, vocab=80, d_model=32, n_heads=4, n_layers=2, window=5, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(DecoderLayer(d_model, n_heads, window) for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, input_ids):
        B, T = input_ids.shape
        dh = self.layers[0].attn.dh
        caches = [{"k": input_ids.new_zeros(B, 0, dh, dtype=torch.float),
                   "v": input_ids.new_zeros(B, 0, dh, dtype=torch.float)} for _ in self.layers]
        logits = []
        for t in range(T):
            x = self.tok(input_ids[:, t:t + 1]) + self.pos.weight[t]
            for layer, cache in zip(self.layers, caches):
                x = layer(x, cache)
            logits.append(self.head(self.norm(x)))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = StreamingDecoder().eval()
    input_ids = torch.randint(0, 80, (3, 12))
    return model, (input_ids,)
