"""Encoder of a multi-document summarizer (PRIMERA-style input layout, Xiao et al., 2022).

The source documents of a cluster are concatenated, each introduced by a <doc-sep> token. Plain
tokens attend only within their own document; <doc-sep> tokens are global (they read and are
read by every token), which is how information moves between documents. doc_ids gives the
document index of every position (0 = batch padding).
"""
import torch
import torch.nn as nn


class DocumentLocalAttention(nn.Module):
    def __init__(self, dim, heads, dropout=0.1):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, allowed):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / self.dh ** 0.5
        attn = scores.softmax(dim=-1)
        attn = attn.masked_fill(~allowed[:, None], 0.0)
        attn = self.dropout(attn)
        return self.out((attn @ v).transpose(1, 2).reshape(B, T, D))


class MultiDocEncoder(nn.Module):
    def __init__(self, vocab=400, dim=32, heads=4, depth=2, max_len=64, docsep_id=3):
        super().__init__()
        self.docsep_id = docsep_id
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.attn = nn.ModuleList(DocumentLocalAttention(dim, heads) for _ in range(depth))
        self.ln1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
                                for _ in range(depth))
        self.ln2 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))

    def document_mask(self, input_ids, doc_ids):
        same_doc = doc_ids[:, :, None] == doc_ids[:, None, :]
        is_global = input_ids == self.docsep_id
        allowed = same_doc | is_global[:, None, :] | is_global[:, :, None]
        return allowed & (doc_ids > 0)[:, None, :]

    def forward(self, input_ids, doc_ids):
        allowed = self.document_mask(input_ids, doc_ids)
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        for attn, ln1, ff, ln2 in zip(self.attn, self.ln1, self.ff, self.ln2):
            x = ln1(x + attn(x, allowed))
            x = ln2(x + ff(x))
        return x


def build():
    torch.manual_seed(0)
    model = MultiDocEncoder().eval()
    doc_lens = [[7, 5, 6], [9, 8, 0], [4, 6, 5]]
    ids, docs = torch.zeros(3, 20, dtype=torch.long), torch.zeros(3, 20, dtype=torch.long)
    for b, lens in enumerate(doc_lens):
        t = 0
        for d, n in enumerate(lens):
            if n:
                ids[b, t:t + n] = torch.cat([torch.tensor([3]), torch.randint(4, 400, (n - 1,))])
                docs[b, t:t + n] = d + 1
                t += n
    return model, (ids, docs)
