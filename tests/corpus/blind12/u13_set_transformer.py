"""Set Transformer (Lee et al., 2019) for padded point sets: ISAB encoder + PMA pooling.

Sets of different sizes are padded to N elements; `mask` is True for real elements. Inducing
points and pooling seeds are the queries, so only the key side needs the padding mask; the
second half of an ISAB (elements attending to the m inducing outputs) needs none.
"""
import torch
import torch.nn as nn


class MAB(nn.Module):
    def __init__(self, dim_q, dim_k, dim, heads, ln=True):
        super().__init__()
        self.fc_q = nn.Linear(dim_q, dim)
        self.fc_k = nn.Linear(dim_k, dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln0 = nn.LayerNorm(dim) if ln else nn.Identity()
        self.ln1 = nn.LayerNorm(dim) if ln else nn.Identity()
        self.fc_o = nn.Linear(dim, dim)

    def forward(self, X, Y, key_padding_mask=None):
        Q, K = self.fc_q(X), self.fc_k(Y)
        A, _ = self.attn(Q, K, K, key_padding_mask=key_padding_mask, need_weights=False)
        H = self.ln0(Q + A)
        return self.ln1(H + torch.relu(self.fc_o(H)))


class ISAB(nn.Module):
    def __init__(self, dim_in, dim, heads, num_inds):
        super().__init__()
        self.I = nn.Parameter(torch.randn(1, num_inds, dim) * 0.5)
        self.mab0 = MAB(dim, dim_in, dim, heads)
        self.mab1 = MAB(dim_in, dim, dim, heads)

    def forward(self, X, pad):
        H = self.mab0(self.I.expand(X.size(0), -1, -1), X, key_padding_mask=pad)
        return self.mab1(X, H)


class PMA(nn.Module):
    def __init__(self, dim, heads, num_seeds):
        super().__init__()
        self.S = nn.Parameter(torch.randn(1, num_seeds, dim) * 0.5)
        self.mab = MAB(dim, dim, dim, heads)

    def forward(self, X, pad):
        return self.mab(self.S.expand(X.size(0), -1, -1), X, key_padding_mask=pad)


class SetTransformer(nn.Module):
    def __init__(self, dim_in=3, dim=32, heads=4, num_inds=6, num_outputs=2, dim_out=5):
        super().__init__()
        self.enc1 = ISAB(dim_in, dim, heads, num_inds)
        self.enc2 = ISAB(dim, dim, heads, num_inds)
        self.pool = PMA(dim, heads, num_outputs)
        self.dec = nn.Linear(dim, dim_out)

    def forward(self, X, mask):
        pad = ~mask
        h = self.enc2(self.enc1(X, pad), pad)
        return self.dec(self.pool(h, pad))


def build():
    torch.manual_seed(13)
    model = SetTransformer().eval()
    X = torch.randn(3, 10, 3)
    sizes = torch.tensor([10, 6, 3])
    mask = torch.arange(10)[None] < sizes[:, None]
    X = X * mask[..., None]
    return model, (X, mask)
