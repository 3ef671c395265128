import torch
import torch.nn as nn
import torch.nn.functional as F


class PackedAttention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.wq = nn.Linear(d, d, bias=False)
        self.wk = nn.Linear(d, d, bias=False)
        self.wv = nn.Linear(d, d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)

    def forward(self, x, allowed):
        B, T, D = x.shape
        H = self.n_heads
        q = self.wq(x).view(B, T, H, -1).transpose(1, 2)
        k = self.wk(x).view(B, T, H, -1).transpose(1, 2)
        v = self.wv(x).view(B, T, H, -1).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed.unsqueeze(1))
        return self.wo(y.transpose(1, 2).reshape(B, T, D))


class PackedDecoder(nn.Module):
    def __init__(self, vocab=40, d=32, n_heads=4, n_layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(16, d)
        self.layers = nn.ModuleList([nn.ModuleDict(dict(
            ln1=nn.LayerNorm(d), attn=PackedAttention(d, n_heads), ln2=nn.LayerNorm(d),
            mlp=nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)))) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, segment_ids, position_ids):
        T = ids.size(1)
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=ids.device))
        same_doc = segment_ids.unsqueeze(2) == segment_ids.unsqueeze(1)
        allowed = same_doc & causal
        x = self.tok(ids) + self.pos(position_ids)
        for layer in self.layers:
            x = x + layer["attn"](layer["ln1"](x), allowed)
            x = x + layer["mlp"](layer["ln2"](x))
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = PackedDecoder().eval()
    ids = torch.randint(1, 40, (2, 9))
    segment_ids = torch.tensor([[0, 0, 0, 1, 1, 1, 1, 2, 2], [0, 0, 0, 0, 1, 1, -1, -1, -1]])
    position_ids = torch.tensor([[0, 1, 2, 0, 1, 2, 3, 0, 1], [0, 1, 2, 3, 0, 1, 0, 0, 0]])
    ids[1, 6:] = 0
    return model, (ids, segment_ids, position_ids)
