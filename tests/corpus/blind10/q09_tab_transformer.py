import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class ColumnAttention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=8, dropout=0.0):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Linear(inner, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in (q, k, v))
        sim = torch.einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        sim = sim - sim.amax(dim=-2, keepdim=True)
        attn = sim.exp()
        attn = attn / attn.sum(dim=-2, keepdim=True)
        attn = self.dropout(attn)
        out = torch.einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class GEGLU(nn.Module):
    def forward(self, x):
        x, gates = x.chunk(2, dim=-1)
        return x * F.gelu(gates)


class TabTransformer(nn.Module):
    def __init__(self, categories=(5, 4, 6, 3), num_continuous=4, dim=32, depth=2, heads=4, dim_out=1):
        super().__init__()
        self.num_special = 2
        total = sum(categories) + self.num_special
        offsets = F.pad(torch.tensor(list(categories)), (1, 0), value=self.num_special).cumsum(-1)[:-1]
        self.register_buffer("categories_offset", offsets)
        self.embeds = nn.Embedding(total, dim)
        self.layers = nn.ModuleList([])
        for _ in range(depth):
            self.layers.append(nn.ModuleList([
                nn.LayerNorm(dim), ColumnAttention(dim, heads=heads),
                nn.LayerNorm(dim), nn.Sequential(nn.Linear(dim, dim * 8), GEGLU(), nn.Linear(dim * 4, dim)),
            ]))
        self.norm_cont = nn.LayerNorm(num_continuous)
        n_cat = len(categories)
        self.mlp = nn.Sequential(nn.Linear(dim * n_cat + num_continuous, 32), nn.ReLU(), nn.Linear(32, dim_out))

    def forward(self, x_categ, x_cont):
        x = self.embeds(x_categ + self.categories_offset)
        for ln1, attn, ln2, ff in self.layers:
            x = attn(ln1(x)) + x
            x = ff(ln2(x)) + x
        flat = x.flatten(1)
        return self.mlp(torch.cat((flat, self.norm_cont(x_cont)), dim=-1))


def build():
    torch.manual_seed(0)
    model = TabTransformer().eval()
    x_categ = torch.stack([torch.randint(0, c, (3,)) for c in (5, 4, 6, 3)], dim=1)
    x_cont = torch.randn(3, 4)
    return model, (x_categ, x_cont)
