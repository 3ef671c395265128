import torch
import torch.nn as nn
import torch.nn.functional as F


def document_position_ids(doc_ids):
    B, T = doc_ids.shape
    idx = torch.arange(T, device=doc_ids.device).expand(B, T)
    starts = torch.ones_like(doc_ids, dtype=torch.bool)
    starts[:, 1:] = doc_ids[:, 1:] != doc_ids[:, :-1]
    start_idx = torch.where(starts, idx, torch.zeros_like(idx)).cummax(dim=1).values
    return idx - start_idx


def packed_causal_mask(doc_ids):
    T = doc_ids.shape[1]
    same_doc = doc_ids[:, :, None] == doc_ids[:, None, :]
    causal = torch.ones(T, T, dtype=torch.bool, device=doc_ids.device).tril()
    return (same_doc & causal).unsqueeze(1)


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.proj(a.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.ln2(x))


class PackedGPT(nn.Module):
    def __init__(self, vocab=60, d=32, heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, doc_ids):
        pos = document_position_ids(doc_ids)
        x = self.wte(input_ids) + self.wpe(pos)
        mask = packed_causal_mask(doc_ids)
        for blk in self.blocks:
            x = blk(x, mask)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = PackedGPT().eval()
    input_ids = torch.randint(0, 60, (2, 12))
    doc_ids = torch.tensor([[0] * 5 + [1] * 4 + [2] * 3, [0] * 7 + [1] * 5])
    return model, (input_ids, doc_ids)
