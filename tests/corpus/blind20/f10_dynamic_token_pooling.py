"""Byte-level LM with dynamic token pooling (Nawrot et al., ACL 2023).

A boundary predictor marks the last byte of every segment. The bytes of a segment are mean-pooled
into one shortened token, a causal Transformer runs over the shortened sequence, and each byte is
upsampled from the output of the PREVIOUS segment (its own segment is not finished yet) plus a
residual from the byte-level pre-layer. Segment ids of the batch live in one flat id space so
pooling is a single index_add over B*T rows; row b*T + s of the pooled buffer is segment s of b.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def causal_mask(T, device):
    return torch.ones(T, T, dtype=torch.bool, device=device).triu(1)


def layer(dim, heads):
    return nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.1, batch_first=True, norm_first=True)


class DynamicPoolingLM(nn.Module):
    def __init__(self, vocab=256, dim=32, heads=4, max_len=64, temperature=0.5):
        super().__init__()
        self.temperature = temperature
        self.emb, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.pre = layer(dim, heads)
        self.boundary = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, 1))
        self.mid = nn.TransformerEncoder(layer(dim, heads), 2, enable_nested_tensor=False)
        self.null_segment = nn.Parameter(torch.zeros(dim))
        self.post = layer(dim, heads)
        self.head = nn.Linear(dim, vocab)

    def predict_boundaries(self, h):
        logits = self.boundary(h).squeeze(-1)
        if self.training:
            u = torch.rand_like(logits).clamp(1e-6, 1 - 1e-6)
            soft = torch.sigmoid((logits + torch.log(u) - torch.log1p(-u)) / self.temperature)
            return soft + ((soft > 0.5).float() - soft).detach()
        return (logits > 0).float()

    def forward(self, ids):
        B, T = ids.shape
        mask = causal_mask(T, ids.device)
        h = self.pre(self.emb(ids) + self.pos(torch.arange(T, device=ids.device)), src_mask=mask)
        b = self.predict_boundaries(h)
        seg = (b.flatten().cumsum(0) - b.flatten()).view(B, T).long()
        flat = seg.flatten()
        sums = h.new_zeros(B * T, h.size(-1)).index_add_(0, flat, h.flatten(0, 1))
        counts = h.new_zeros(B * T).index_add_(0, flat, torch.ones_like(flat, dtype=h.dtype))
        short = (sums / counts.clamp(min=1.0)[:, None]).view(B, T, -1)
        z = self.mid(short, mask=mask).flatten(0, 1)
        first = seg - seg[:, :1]
        prev = z[(flat - 1).clamp(min=0)].view(B, T, -1)
        up = torch.where(first.unsqueeze(-1) == 0, self.null_segment, prev)
        return self.head(self.post(h + up, src_mask=mask))


def build():
    torch.manual_seed(0)
    model = DynamicPoolingLM()
    with torch.no_grad():
        model.boundary[2].bias.fill_(-0.3)
    ids = torch.randint(0, 256, (3, 20))
    return model.eval(), (ids,)
