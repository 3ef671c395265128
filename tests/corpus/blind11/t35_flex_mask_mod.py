"""flex_attention-style masking: a mask_mod (document + causal + sliding window) materialized into a dense bias
for the fallback path on hardware without the compiled kernel."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_mask_mod(document_id, window):
    def mask_mod(b, h, q_idx, kv_idx):
        causal = q_idx >= kv_idx
        same_doc = document_id[b, q_idx] == document_id[b, kv_idx]
        in_window = q_idx - kv_idx < window
        return causal & same_doc & in_window

    return mask_mod


def create_dense_mask(mask_mod, B, Q_LEN, KV_LEN):
    b = torch.arange(B)[:, None, None, None]
    h = torch.zeros(1, 1, 1, 1, dtype=torch.long)
    q = torch.arange(Q_LEN)[None, None, :, None]
    kv = torch.arange(KV_LEN)[None, None, None, :]
    return mask_mod(b, h, q, kv)


class FlexBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.norm1, self.norm2 = nn.RMSNorm(dim), nn.RMSNorm(dim)
        self.qkv, self.proj = nn.Linear(dim, 3 * dim, bias=False), nn.Linear(dim, dim, bias=False)
        self.mlp = nn.Sequential(nn.Linear(dim, 3 * dim), nn.SiLU(), nn.Linear(3 * dim, dim))

    def forward(self, x, score_bias):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=score_bias)
        x = x + self.proj(y.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.norm2(x))


class FlexLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, window=6, max_len=24):
        super().__init__()
        self.window = window
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(FlexBlock(dim, heads) for _ in range(layers))
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, document_id):
        B, T = input_ids.shape
        block_mask = create_dense_mask(make_mask_mod(document_id, self.window), B, T, T)
        score_bias = torch.where(block_mask, float("-inf"), 0.0)
        x = self.tok(input_ids) + self.pos(torch.arange(T))
        for blk in self.blocks:
            x = blk(x, score_bias)
        return self.head(x)


def build():
    torch.manual_seed(0)
    document_id = torch.tensor([[0] * 5 + [1] * 6 + [2] * 5, [0] * 9 + [1] * 7])
    return FlexLM().eval(), (torch.randint(0, 50, (2, 16)), document_id)
