import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class PrefixAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d)

    def forward(self, x, allowed):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in (q, k, v))
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed[:, None])
        return self.out(rearrange(o, "b h n d -> b n (h d)"))


class PrefixLM(nn.Module):
    def __init__(self, vocab=50, d=32, heads=4, layers=2, max_len=24):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.attn = nn.ModuleList([PrefixAttention(d, heads) for _ in range(layers)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.GELU(),
                                                nn.Linear(2 * d, d)) for _ in range(layers)])
        self.norm = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, prefix_len):
        B, T = ids.shape
        i = torch.arange(T, device=ids.device)
        causal = i[None, :] <= i[:, None]
        in_prefix = i[None, None, :] < prefix_len[:, None, None]
        allowed = causal[None] | in_prefix
        x = self.tok(ids) + self.pos(i)
        for att, mlp, ln in zip(self.attn, self.mlp, self.norm):
            x = x + att(ln(x), allowed)
            x = x + mlp(x)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = PrefixLM().eval()
    ids = torch.randint(0, 50, (2, 9))
    prefix_len = torch.tensor([3, 5])
    return model, (ids, prefix_len)
