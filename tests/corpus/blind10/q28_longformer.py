import torch
import torch.nn as nn
import torch.nn.functional as F


def local_global_mask(attention_mask, global_mask, window):
    """bool [B, 1, T, T], True = may attend. Sliding window of +-window, global tokens see / are seen by all."""
    T = attention_mask.size(1)
    pos = torch.arange(T)
    band = (pos[None, :] - pos[:, None]).abs() <= window
    g = global_mask.bool()
    allowed = band[None] | g[:, :, None] | g[:, None, :]
    allowed = allowed & attention_mask.bool()[:, None, :]
    return allowed.unsqueeze(1)


class LongformerLayer(nn.Module):
    def __init__(self, d=32, heads=4, window=2):
        super().__init__()
        self.h, self.window = heads, window
        self.qkv = nn.Linear(d, 3 * d)
        self.qkv_global = nn.Linear(d, 3 * d)  # separate projections for global attention
        self.o = nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, attention_mask, global_mask):
        B, T, D = x.shape
        g = global_mask.bool()[..., None]
        qkv = torch.where(g, self.qkv_global(x), self.qkv(x))
        q, k, v = qkv.view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        mask = local_global_mask(attention_mask, global_mask, self.window)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = self.ln1(x + self.o(y.transpose(1, 2).reshape(B, T, D)))
        return self.ln2(x + self.ff(x))


class LongDocClassifier(nn.Module):
    def __init__(self, vocab=60, d=32, layers=2, n_cls=3, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, padding_idx=1)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(LongformerLayer(d) for _ in range(layers))
        self.cls = nn.Linear(d, n_cls)

    def forward(self, input_ids, attention_mask):
        global_mask = torch.zeros_like(attention_mask)
        global_mask[:, 0] = 1  # <s> token is global
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.size(1)))[None]
        for layer in self.layers:
            x = layer(x, attention_mask, global_mask)
        return self.cls(x[:, 0])


def build():
    torch.manual_seed(0)
    model = LongDocClassifier().eval()
    ids = torch.full((2, 16), 1, dtype=torch.long)
    ids[:, 0] = 0
    ids[0, 1:16] = torch.randint(3, 60, (15,))
    ids[1, 1:9] = torch.randint(3, 60, (8,))
    attention_mask = (ids != 1).long()
    return model, (ids, attention_mask)
