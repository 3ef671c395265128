import torch
import torch.nn as nn
import torch.nn.functional as F


def elu_feature_map(x):
    return F.elu(x) + 1


def causal_linear_attention(q, k, v, eps=1e-6):
    q = elu_feature_map(q)
    k = elu_feature_map(k)
    kv = torch.einsum("bhtd,bhte->bhtde", k, v).cumsum(dim=2)
    z = k.cumsum(dim=2)
    num = torch.einsum("bhtd,bhtde->bhte", q, kv)
    den = torch.einsum("bhtd,bhtd->bht", q, z).unsqueeze(-1)
    return num / (den + eps)


class LinearAttentionLM(nn.Module):
    def __init__(self, vocab=40, d=32, heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.h = heads
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(
            [nn.ModuleDict({"norm": nn.LayerNorm(d), "qkv": nn.Linear(d, 3 * d), "o": nn.Linear(d, d),
                            "norm2": nn.LayerNorm(d), "ff": nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))})
             for _ in range(n_layers)]
        )
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        B, T = tokens.shape
        x = self.embed(tokens) + self.pos(torch.arange(T, device=tokens.device))
        for L in self.layers:
            q, k, v = L["qkv"](L["norm"](x)).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
            o = causal_linear_attention(q, k, v)
            x = x + L["o"](o.transpose(1, 2).reshape(B, T, -1))
            x = x + L["ff"](L["norm2"](x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = LinearAttentionLM().eval()
    tokens = torch.randint(0, 40, (2, 10))
    return model, (tokens,)
