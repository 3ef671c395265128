import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, dim, n_heads, dropout=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        self.dropout = dropout

    def forward(self, x, attention_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        attn_mask = attention_mask[:, None, None, :].bool()
        y = F.scaled_dot_product_attention(
            q, k, v, attn_mask=attn_mask, dropout_p=self.dropout if self.training else 0.0, is_causal=True
        )
        return self.out(y.transpose(1, 2).reshape(B, T, C))


class DecoderLayer(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.norm1 = nn.RMSNorm(dim)
        self.attn = CausalAttention(dim, n_heads)
        self.norm2 = nn.RMSNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 3 * dim), nn.SiLU(), nn.Linear(3 * dim, dim))

    def forward(self, x, attention_mask):
        x = x + self.attn(self.norm1(x), attention_mask)
        return x + self.ffn(self.norm2(x))


class PaddedDecoder(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim, n_heads) for _ in range(n_layers)])
        self.norm = nn.RMSNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.size(1)))[None]
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = PaddedDecoder().eval()
    input_ids = torch.randint(1, 64, (3, 10))
    attention_mask = torch.ones(3, 10, dtype=torch.long)
    attention_mask[1, 6:] = 0
    attention_mask[2, 3:] = 0
    input_ids = input_ids * attention_mask
    return model, (input_ids, attention_mask)
