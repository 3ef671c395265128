import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x, bias):
        B, T, D = x.shape
        H = self.n_heads
        q = self.q_proj(x).unflatten(-1, (H, D // H)).transpose(1, 2)
        k = self.k_proj(x).unflatten(-1, (H, D // H)).transpose(1, 2)
        v = self.v_proj(x).unflatten(-1, (H, D // H)).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.o_proj(y.transpose(1, 2).flatten(2))


class Layer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = Attention(d_model, n_heads)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, bias):
        x = self.ln1(x + self.attn(x, bias))
        return self.ln2(x + self.mlp(x))


class Encoder(nn.Module):
    def __init__(self, vocab=64, d_model=32, n_heads=4, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(16, d_model)
        self.layers = nn.ModuleList([Layer(d_model, n_heads) for _ in range(n_layers)])
        self.cls = nn.Linear(d_model, 2)

    def forward(self, input_ids, attention_mask):
        keep = attention_mask.bool()[:, None, None, :]
        bias = torch.where(keep, 0.0, float("-inf"))
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.size(1)))
        for layer in self.layers:
            x = layer(x, bias)
        return self.cls(x[:, 0])


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    input_ids = torch.tensor([[1, 37, 12, 55, 6, 2, 0, 0], [1, 9, 2, 0, 0, 0, 0, 0], [1, 40, 22, 18, 3, 61, 27, 2]])
    attention_mask = torch.tensor([[1, 1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 0, 0, 0], [1] * 8])
    return model, (input_ids, attention_mask)
