import torch
import torch.nn as nn
import torch.nn.functional as F


def elu_feature_map(x):
    return F.elu(x) + 1


class CausalLinearAttention(nn.Module):
    """Linear transformer (Katharopoulos et al.) in its parallel causal form via prefix sums."""

    def __init__(self, d=32, heads=4, eps=1e-6):
        super().__init__()
        self.h, self.eps = heads, eps
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x):
        B, T, D = x.shape
        Q = elu_feature_map(self.q(x).view(B, T, self.h, -1))
        K = elu_feature_map(self.k(x).view(B, T, self.h, -1))
        V = self.v(x).view(B, T, self.h, -1)
        KV = torch.einsum("bthd,bthe->bthde", K, V).cumsum(dim=1)  # S_t = sum_{j<=t} phi(k_j) v_j^T
        Z = 1.0 / (torch.einsum("bthd,bthd->bth", Q, K.cumsum(dim=1)) + self.eps)
        out = torch.einsum("bthd,bthde,bth->bthe", Q, KV, Z)
        return self.o(out.reshape(B, T, D))


class LinearLM(nn.Module):
    def __init__(self, vocab=64, d=32, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(32, d)
        self.blocks = nn.ModuleList(
            nn.ModuleDict(dict(ln1=nn.LayerNorm(d), attn=CausalLinearAttention(d), ln2=nn.LayerNorm(d),
                               mlp=nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))))
            for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.emb(idx) + self.pos(torch.arange(idx.size(1)))
        for blk in self.blocks:
            x = x + blk["attn"](blk["ln1"](x))
            x = x + blk["mlp"](blk["ln2"](x))
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = LinearLM().eval()
    idx = torch.randint(0, 64, (2, 16))
    return model, (idx,)
