"""Character LM with Adaptive Attention Span (Sukhbaatar et al., ACL 2019).

Every head learns how far back it looks. After the causal softmax, weights are multiplied by a
soft span mask m_z(x) = clamp((R + z - x) / R, 0, 1) of the query-key distance x (z = learned span,
R = ramp length) and renormalized over the keys, as in the reference implementation; this equals
a softmax with log m_z added to the logits, while keeping the span differentiable.
"""
import torch
import torch.nn as nn


class AdaptiveSpanAttention(nn.Module):
    def __init__(self, dim, heads, max_span=16, ramp=4, init_frac=0.4):
        super().__init__()
        self.heads, self.dh, self.max_span, self.ramp = heads, dim // heads, max_span, ramp
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.span_frac = nn.Parameter(torch.full((heads, 1, 1), init_frac))

    def span_mask(self, T, device):
        pos = torch.arange(T, device=device)
        dist = (pos[:, None] - pos[None, :]).clamp(min=0).float()
        z = self.span_frac.clamp(0, 1) * self.max_span
        return ((self.ramp + z - dist) / self.ramp).clamp(0, 1)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / self.dh ** 0.5
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        attn = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        attn = attn * self.span_mask(T, x.device)
        attn = attn / (attn.sum(dim=-1, keepdim=True) + 1e-8)
        return self.out((attn @ v).transpose(1, 2).reshape(B, T, D))


class AdaptiveSpanLM(nn.Module):
    def __init__(self, vocab=96, dim=32, heads=4, depth=2, max_len=64):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.attn = nn.ModuleList(AdaptiveSpanAttention(dim, heads) for _ in range(depth))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(dim, 4 * dim), nn.ReLU(), nn.Linear(4 * dim, dim))
                                for _ in range(depth))
        self.ln1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.ln2 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for attn, ff, ln1, ln2 in zip(self.attn, self.ff, self.ln1, self.ln2):
            x = ln1(x + attn(x))
            x = ln2(x + ff(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = AdaptiveSpanLM()
    with torch.no_grad():
        for a in model.attn:
            a.span_frac.copy_(torch.tensor([0.1, 0.3, 0.6, 1.0]).view(4, 1, 1))
    return model.eval(), (torch.randint(0, 96, (3, 20)),)
