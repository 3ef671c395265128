import torch
import torch.nn as nn
import torch.nn.functional as F


def elu_feature_map(x):
    return F.elu(x) + 1


class CausalLinearAttention(nn.Module):
    def __init__(self, d_model, n_heads, eps=1e-6):
        super().__init__()
        self.n_heads = n_heads
        self.eps = eps
        self.query_projection = nn.Linear(d_model, d_model)
        self.key_projection = nn.Linear(d_model, d_model)
        self.value_projection = nn.Linear(d_model, d_model)
        self.out_projection = nn.Linear(d_model, d_model)

    def forward(self, x):
        N, L, _ = x.shape
        H = self.n_heads
        queries = self.query_projection(x).view(N, L, H, -1)
        keys = self.key_projection(x).view(N, L, H, -1)
        values = self.value_projection(x).view(N, L, H, -1)
        Q = elu_feature_map(queries)
        K = elu_feature_map(keys)
        Z = 1 / (torch.einsum("nlhi,nlhi->nlh", Q, K.cumsum(1)) + self.eps)
        KV = torch.einsum("nlhd,nlhm->nlhdm", K, values).cumsum(1)
        V = torch.einsum("nlhd,nlhdm,nlh->nlhm", Q, KV, Z)
        return self.out_projection(V.reshape(N, L, -1))


class Layer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attention = CausalLinearAttention(d_model, n_heads)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x):
        x = x + self.attention(self.norm1(x))
        return x + self.ff(self.norm2(x))


class LinearTransformerLM(nn.Module):
    def __init__(self, vocab=64, d_model=32, n_heads=4, n_layers=2, max_len=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([Layer(d_model, n_heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d_model)
        self.out = nn.Linear(d_model, vocab)

    def forward(self, tokens):
        x = self.emb(tokens) + self.pos(torch.arange(tokens.size(1)))
        for layer in self.layers:
            x = layer(x)
        return self.out(self.norm(x))


def build():
    torch.manual_seed(0)
    model = LinearTransformerLM().eval()
    tokens = torch.randint(0, 64, (2, 12))
    return model, (tokens,)
