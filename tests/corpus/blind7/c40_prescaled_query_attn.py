import torch
import torch.nn as nn
import torch.nn.functional as F


class PrescaledAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h = heads
        self.dh = d // heads
        self.scale = self.dh ** -0.5
        self.to_qkv = nn.Linear(d, 3 * d, bias=False)
        self.to_out = nn.Linear(d, d)

    def forward(self, x, context_mask):
        B, N, C = x.shape
        q, k, v = self.to_qkv(x).view(B, N, 3, self.h, self.dh).unbind(2)
        q = q.transpose(1, 2) * self.scale
        k = k.transpose(1, 2)
        v = v.transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=context_mask[:, None, None, :], scale=1.0)
        return self.to_out(out.transpose(1, 2).reshape(B, N, C))


class TokenMixer(nn.Module):
    def __init__(self, vocab=40, d=32, heads=4, depth=2, max_len=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(d), PrescaledAttention(d, heads), nn.LayerNorm(d),
                            nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))]) for _ in range(depth)]
        )
        self.norm = nn.LayerNorm(d)

    def forward(self, ids, attention_mask):
        T = ids.shape[1]
        x = self.embed(ids) + self.pos(torch.arange(T, device=ids.device))
        keep = attention_mask.bool()
        for n1, attn, n2, ff in self.layers:
            x = x + attn(n1(x), keep)
            x = x + ff(n2(x))
        return self.norm(x) * keep.unsqueeze(-1)


def build():
    torch.manual_seed(0)
    model = TokenMixer().eval()
    ids = torch.randint(0, 40, (2, 10))
    attention_mask = torch.tensor([[1] * 10, [1] * 6 + [0] * 4])
    return model, (ids, attention_mask)
