"""Log anomaly detection by next-template prediction (DeepLog-style, with a transformer).

Raw log lines are parsed into template ids (Drain) with their timestamps. The model reads the
template sequence together with the inter-arrival gaps, bucketed on a log scale, and predicts the
next template; a window is flagged when an observed template falls outside the top-k.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, allowed):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        x = x + self.proj(a.transpose(1, 2).reshape(B, T, D))
        return x + self.ff(self.ln2(x))


class LogTemplateLM(nn.Module):
    def __init__(self, n_templates=50, dim=32, heads=4, depth=2, n_buckets=16, max_len=128):
        super().__init__()
        self.template = nn.Embedding(n_templates, dim)
        self.gap = nn.Embedding(n_buckets, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.register_buffer("edges", torch.linspace(0.0, 8.0, n_buckets - 1), persistent=False)
        self.blocks = nn.ModuleList([CausalBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_templates)

    def gap_buckets(self, ts):
        gap = torch.diff(ts, dim=1, append=ts[:, -1:])
        return torch.bucketize(torch.log1p(gap.clamp(min=0.0)), self.edges)

    def forward(self, templates, ts):
        B, T = templates.shape
        x = self.template(templates) + self.gap(self.gap_buckets(ts)) + self.pos(torch.arange(T, device=ts.device))
        allowed = torch.ones(T, T, dtype=torch.bool, device=ts.device).tril()
        for blk in self.blocks:
            x = blk(x, allowed)
        return self.head(self.norm(x))


@torch.no_grad()
def flag_anomalies(model, templates, ts, k=5):
    logits = model(templates, ts)[:, :-1]
    topk = logits.topk(k, dim=-1).indices
    return ~(topk == templates[:, 1:, None]).any(-1)


def build():
    torch.manual_seed(0)
    model = LogTemplateLM().eval()
    templates = torch.randint(0, 50, (3, 16))
    ts = torch.cumsum(torch.rand(3, 16) ** 4 * 600.0, dim=1) + 1.7e9    # epoch seconds, bursty
    return model, (templates, ts.double())
