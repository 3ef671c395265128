"""ColBERT late interaction: per-token query/document embeddings, MaxSim over document tokens, summed over query tokens."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenEncoder(nn.Module):
    def __init__(self, vocab, dim, heads, out_dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(32, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.linear = nn.Linear(dim, out_dim, bias=False)

    def forward(self, ids, mask):
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1)))
        x = self.enc(x, src_key_padding_mask=mask == 0)
        return F.normalize(self.linear(x), p=2, dim=-1)


class ColBERT(nn.Module):
    def __init__(self, vocab=60, dim=32, heads=4, out_dim=16):
        super().__init__()
        self.encoder = TokenEncoder(vocab, dim, heads, out_dim)

    def forward(self, q_ids, q_mask, d_ids, d_mask):
        Q = self.encoder(q_ids, q_mask)
        D = self.encoder(d_ids, d_mask)
        D = D * d_mask[..., None]  # zero padded document tokens
        sim = torch.einsum("bqd,bkd->bqk", Q, D)
        sim = sim.masked_fill(d_mask[:, None, :] == 0, -1e4)
        maxsim = sim.max(dim=-1).values
        return (maxsim * q_mask).sum(dim=-1)


def build():
    torch.manual_seed(0)
    q_mask = (torch.arange(6)[None] < torch.tensor([6, 4, 3])[:, None]).long()
    d_mask = (torch.arange(12)[None] < torch.tensor([9, 12, 5])[:, None]).long()
    q_ids = torch.randint(1, 60, (3, 6)) * q_mask
    d_ids = torch.randint(1, 60, (3, 12)) * d_mask
    return ColBERT().eval(), (q_ids, q_mask, d_ids, d_mask)
