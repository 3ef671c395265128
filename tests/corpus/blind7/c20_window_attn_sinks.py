import torch
import torch.nn as nn
import torch.nn.functional as F


def sink_window_mask(T, window, n_sink, device=None):
    i = torch.arange(T, device=device)[:, None]
    j = torch.arange(T, device=device)[None, :]
    local = (i - j >= 0) & (i - j < window)
    sink = j < n_sink
    return local | sink


class StreamingAttention(nn.Module):
    def __init__(self, d=32, heads=4, window=4, n_sink=2):
        super().__init__()
        self.h = heads
        self.window = window
        self.n_sink = n_sink
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        mask = sink_window_mask(T, self.window, self.n_sink, x.device)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.o(out.transpose(1, 2).reshape(B, T, D))


class StreamingLM(nn.Module):
    def __init__(self, vocab=50, d=32, n_layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(d), StreamingAttention(d), nn.LayerNorm(d),
                            nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))]) for _ in range(n_layers)]
        )
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        T = tokens.shape[1]
        x = self.embed(tokens) + self.pos(torch.arange(T, device=tokens.device))
        for n1, attn, n2, ff in self.blocks:
            x = x + attn(n1(x))
            x = x + ff(n2(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = StreamingLM().eval()
    tokens = torch.randint(0, 50, (2, 12))
    return model, (tokens,)
