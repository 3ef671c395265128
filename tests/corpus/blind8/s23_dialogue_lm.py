import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.wqkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, keep):
        B, T, D = x.shape
        qkv = self.wqkv(x).view(B, T, 3, self.n_heads, -1).transpose(1, 3)
        q, k, v = qkv.unbind(dim=2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        return self.proj(y.transpose(1, 2).reshape(B, T, D))


class Decoder(nn.Module):
    def __init__(self, vocab=50, d=32, n_heads=4, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(16, d)
        self.attn = nn.ModuleList([Attention(d, n_heads) for _ in range(n_layers)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(n_layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d)
        self.out = nn.Linear(d, vocab)

    def forward(self, input_ids, attention_mask):
        T = input_ids.size(1)
        causal = torch.ones(T, T, device=input_ids.device).tril().bool()
        keep = causal[None, None] & attention_mask.bool()[:, None, None, :]
        x = self.emb(input_ids) + self.pos(torch.arange(T, device=input_ids.device))
        for a, m, l1, l2 in zip(self.attn, self.mlp, self.ln1, self.ln2):
            x = x + a(l1(x), keep)
            x = x + m(l2(x))
        return self.out(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = Decoder().eval()
    input_ids = torch.tensor([[7, 19, 33, 4, 25, 11, 0, 0], [13, 2, 45, 29, 8, 16, 37, 21]])
    attention_mask = (input_ids != 0).long()
    return model, (input_ids, attention_mask)
