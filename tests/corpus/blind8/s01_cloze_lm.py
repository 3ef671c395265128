import math
import torch
import torch.nn as nn
import torch.nn.functional as F

MASK_ID = 4


class EncoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.ln1 = nn.LayerNorm(d)
        self.ln2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        keep = attention_mask[:, None, None, :].bool()
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        x = self.ln1(x + self.o(y.transpose(1, 2).reshape(B, T, D)))
        return self.ln2(x + self.ff(x))


class MaskedLM(nn.Module):
    def __init__(self, vocab=60, d=32, h=4, n=2, mlm_prob=0.15):
        super().__init__()
        self.mlm_prob = mlm_prob
        self.tok = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(16, d)
        self.layers = nn.ModuleList([EncoderLayer(d, h) for _ in range(n)])
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids, attention_mask):
        prob = torch.rand(input_ids.shape, device=input_ids.device)
        selected = (prob < self.mlm_prob) & attention_mask.bool()
        masked_ids = input_ids.masked_fill(selected, MASK_ID)
        x = self.tok(masked_ids) + self.pos(torch.arange(input_ids.size(1)))
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = MaskedLM().eval()
    input_ids = torch.tensor([[2, 17, 33, 8, 41, 12, 25, 3], [2, 9, 50, 22, 3, 0, 0, 0]])
    attention_mask = (input_ids != 0).long()
    return model, (input_ids, attention_mask)
