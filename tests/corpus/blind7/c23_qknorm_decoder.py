import torch
import torch.nn as nn
import torch.nn.functional as F


def rms_norm(x, weight, eps=1e-6):
    return x * torch.rsqrt(x.pow(2).mean(dim=-2, keepdim=True) + eps) * weight


class QKNormAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h = heads
        self.dh = d // heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.q_norm_weight = nn.Parameter(torch.ones(self.dh) + 0.1 * torch.randn(self.dh))
        self.k_norm_weight = nn.Parameter(torch.ones(self.dh) + 0.1 * torch.randn(self.dh))
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        q = rms_norm(q, self.q_norm_weight)
        k = rms_norm(k, self.k_norm_weight)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(out.transpose(1, 2).reshape(B, T, D))


class QKNormLM(nn.Module):
    def __init__(self, vocab=50, d=32, n_layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(
            [nn.ModuleList([nn.RMSNorm(d), QKNormAttention(d), nn.RMSNorm(d),
                            nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))]) for _ in range(n_layers)]
        )
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        T = tokens.shape[1]
        x = self.embed(tokens) + self.pos(torch.arange(T, device=tokens.device))
        for n1, attn, n2, ff in self.blocks:
            x = x + attn(n1(x))
            x = x + ff(n2(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = QKNormLM().eval()
    tokens = torch.randint(0, 50, (2, 10))
    return model, (tokens,)
