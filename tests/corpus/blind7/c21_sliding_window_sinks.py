import torch
import torch.nn as nn


def build_attention_bias(T, window, n_sink, device=None, dtype=torch.float32):
    i = torch.arange(T, device=device)[:, None]
    j = torch.arange(T, device=device)[None, :]
    causal = j <= i
    visible = causal & ((i - j < window) | (j < n_sink))
    bias = torch.zeros(T, T, device=device, dtype=dtype)
    return bias.masked_fill(~visible, torch.finfo(dtype).min)


class WindowedSelfAttention(nn.Module):
    def __init__(self, d=32, heads=4, window=4, n_sink=2):
        super().__init__()
        self.h = heads
        self.dh = d // heads
        self.window = window
        self.n_sink = n_sink
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q = self.q_proj(x).view(B, T, self.h, self.dh).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.h, self.dh).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.h, self.dh).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(2, 3)) / self.dh ** 0.5
        scores = scores + build_attention_bias(T, self.window, self.n_sink, x.device, scores.dtype)
        probs = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        out = torch.matmul(probs, v).transpose(1, 2).reshape(B, T, D)
        return self.o_proj(out)


class SinkLM(nn.Module):
    def __init__(self, vocab=50, d=32, n_layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(d), WindowedSelfAttention(d), nn.LayerNorm(d),
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
    model = SinkLM().eval()
    tokens = torch.randint(0, 50, (2, 12))
    return model, (tokens,)
