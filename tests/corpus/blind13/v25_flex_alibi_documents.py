"""Packed-document causal LM on FlexAttention.

Several documents are packed into each row; `doc_ids` says which document a token belongs
to. The mask_mod keeps attention causal and inside the document, the score_mod adds an
ALiBi distance penalty per head (the penalty is zero on the diagonal and negative for
earlier keys; later keys are removed by the mask anyway).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def alibi_slopes(n_heads):
    start = 2.0 ** (-8.0 / n_heads)
    return torch.tensor([start ** (i + 1) for i in range(n_heads)])


class FlexBlock(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, block_mask, score_mod):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        a = flex_attention(q, k, v, score_mod=score_mod, block_mask=block_mask)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.ln2(x))


class PackedLM(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, n_layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(FlexBlock(d, heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.register_buffer("slopes", alibi_slopes(heads))

    def forward(self, input_ids, doc_ids):
        B, T = input_ids.shape
        slopes = self.slopes

        def doc_causal(b, h, q_idx, kv_idx):
            return (kv_idx <= q_idx) & (doc_ids[b, kv_idx] == doc_ids[b, q_idx])

        def alibi(score, b, h, q_idx, kv_idx):
            return score + slopes[h] * (kv_idx - q_idx)

        block_mask = create_block_mask(doc_causal, B, None, T, T, device=input_ids.device)
        x = self.tok(input_ids)
        for blk in self.blocks:
            x = blk(x, block_mask, alibi)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = PackedLM().eval()
    input_ids = torch.randint(0, 64, (2, 12))
    doc_ids = torch.tensor([[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1],
                            [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2]])
    return model, (input_ids, doc_ids)
