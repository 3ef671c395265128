import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, attn_mask):
        B, T, D = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.view(B, T, self.n_heads, -1).transpose(1, 2)
        k = k.view(B, T, self.n_heads, -1).transpose(1, 2)
        v = v.view(B, T, self.n_heads, -1).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return self.out_proj(out.transpose(1, 2).reshape(B, T, D))


class Layer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.sa = SelfAttention(d_model, n_heads)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, attn_mask):
        x = x + self.sa(self.norm1(x), attn_mask)
        return x + self.ff(self.norm2(x))


class SDPALM(nn.Module):
    def __init__(self, vocab=50, d_model=32, n_heads=4, n_layers=2, max_len=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([Layer(d_model, n_heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, input_ids):
        T = input_ids.size(1)
        attn_mask = torch.triu(torch.ones(T, T, device=input_ids.device)).bool()
        x = self.emb(input_ids) + self.pos(torch.arange(T, device=input_ids.device))
        for layer in self.layers:
            x = layer(x, attn_mask)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = SDPALM().eval()
    input_ids = torch.randint(0, 50, (2, 9))
    return model, (input_ids,)
