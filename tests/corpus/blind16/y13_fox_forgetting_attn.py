"""Forgetting Transformer (FoX, Lin et al. 2025): softmax attention with a data-dependent forget gate.

Each position emits a scalar forget gate f_t = sigmoid(w_f . x_t + b_f) per head. The logit of
query i for key j is shifted by sum_{l=j+1..i} log f_l, computed as a difference of cumulative
sums of log f. No positional embeddings are used.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ForgettingAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_fgate = nn.Linear(dim, heads)
        self.q_norm = nn.LayerNorm(self.dh)
        self.k_norm = nn.LayerNorm(self.dh)
        self.to_out = nn.Linear(dim, dim, bias=False)
        nn.init.constant_(self.to_fgate.bias, 2.0)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.heads, self.dh).transpose(1, 2) for t in (q, k, v))
        q, k = self.q_norm(q), self.k_norm(k)
        log_f = F.logsigmoid(self.to_fgate(x)).transpose(1, 2)          # (B, H, T)
        c = log_f.cumsum(dim=-1)
        decay = c.unsqueeze(-1) - c.unsqueeze(-2)                        # (B, H, Tq, Tk) = sum_{j<l<=i}
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        decay = decay.masked_fill(~causal, float("-inf"))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=decay)
        return self.to_out(out.transpose(1, 2).reshape(B, T, D))


class FoXBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = ForgettingAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


class FoXLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([FoXBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = FoXLM().eval()
    return model, (torch.randint(0, 64, (3, 20)),)
