"""Funnel-Transformer style encoder (Dai et al., 2020): after the first block the token
sequence (all but [CLS]) is mean-pooled by 2, and the first layer of the next block is
"pool-query-only": pooled queries attend to the unpooled keys and values.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)

    def forward(self, query, source, key_mask):
        B, Lq, D = query.shape
        Lk = source.size(1)
        q = self.q(query).view(B, Lq, self.h, -1).transpose(1, 2)
        k, v = self.kv(source).view(B, Lk, 2, self.h, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=key_mask[:, None, None, :])
        return self.o(y.transpose(1, 2).reshape(B, Lq, D))


class Layer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = Attention(d, heads)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, query, source, key_mask):
        x = self.ln1(query + self.attn(query, source, key_mask))
        return self.ln2(x + self.ff(x))


def mean_pool_pairs(h, mask):
    """pool tokens 2 by 2 over the real ones only; a pooled slot is real if either token is"""
    B, L, D = h.shape
    m = mask.view(B, L // 2, 2)
    summed = (h * mask.unsqueeze(-1)).view(B, L // 2, 2, D).sum(2)
    pooled = summed / m.sum(-1, keepdim=True).clamp(min=1)
    return pooled, m.any(-1)


class FunnelClassifier(nn.Module):
    def __init__(self, vocab=90, d=32, heads=4, max_len=64, n_classes=5):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.block1 = nn.ModuleList(Layer(d, heads) for _ in range(2))
        self.block2 = nn.ModuleList(Layer(d, heads) for _ in range(2))
        self.head = nn.Linear(d, n_classes)

    def forward(self, input_ids, attention_mask):
        mask = attention_mask.bool()
        h = self.tok(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        for layer in self.block1:
            h = layer(h, h, mask)
        pooled, pooled_mask = mean_pool_pairs(h[:, 1:], mask[:, 1:])
        q = torch.cat([h[:, :1], pooled], dim=1)
        q_mask = torch.cat([mask[:, :1], pooled_mask], dim=1)
        q = self.block2[0](q, h, mask)
        q = self.block2[1](q, q, q_mask)
        return self.head(q[:, 0])


def build():
    torch.manual_seed(0)
    model = FunnelClassifier().eval()
    lengths = torch.tensor([17, 12, 7])
    attention_mask = (torch.arange(17)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(2, 90, (3, 17)) * attention_mask
    input_ids[:, 0] = 1
    return model, (input_ids, attention_mask)
