import torch
import torch.nn as nn
import torch.nn.functional as F


class MAB(nn.Module):
    def __init__(self, dim_q, dim_k, dim_v, heads, ln=True):
        super().__init__()
        self.dim_v = dim_v
        self.heads = heads
        self.fc_q = nn.Linear(dim_q, dim_v)
        self.fc_k = nn.Linear(dim_k, dim_v)
        self.fc_v = nn.Linear(dim_k, dim_v)
        self.ln0 = nn.LayerNorm(dim_v) if ln else nn.Identity()
        self.ln1 = nn.LayerNorm(dim_v) if ln else nn.Identity()
        self.fc_o = nn.Linear(dim_v, dim_v)

    def forward(self, Q, K, key_mask=None):
        Q = self.fc_q(Q)
        Kp, V = self.fc_k(K), self.fc_v(K)
        B, Nq, _ = Q.shape
        Nk = K.shape[1]
        q = Q.view(B, Nq, self.heads, -1).transpose(1, 2)
        k = Kp.view(B, Nk, self.heads, -1).transpose(1, 2)
        v = V.view(B, Nk, self.heads, -1).transpose(1, 2)
        logits = q @ k.transpose(-2, -1) / (self.dim_v // self.heads) ** 0.5
        if key_mask is not None:
            logits = logits.masked_fill(~key_mask[:, None, None, :], float("-inf"))
        A = logits.softmax(dim=-1)
        O = Q + (A @ v).transpose(1, 2).reshape(B, Nq, self.dim_v)
        O = self.ln0(O)
        return self.ln1(O + F.relu(self.fc_o(O)))


class SAB(nn.Module):
    def __init__(self, dim_in, dim_out, heads):
        super().__init__()
        self.mab = MAB(dim_in, dim_in, dim_out, heads)

    def forward(self, X, mask):
        return self.mab(X, X, mask)


class PMA(nn.Module):
    def __init__(self, dim, heads, num_seeds):
        super().__init__()
        self.S = nn.Parameter(torch.randn(1, num_seeds, dim) * 0.1)
        self.mab = MAB(dim, dim, dim, heads)

    def forward(self, X, mask):
        return self.mab(self.S.expand(X.shape[0], -1, -1), X, mask)


class SetTransformer(nn.Module):
    def __init__(self, dim_in=3, dim_hidden=32, heads=4, num_outputs=1, dim_out=5):
        super().__init__()
        self.enc1 = SAB(dim_in, dim_hidden, heads)
        self.enc2 = SAB(dim_hidden, dim_hidden, heads)
        self.pool = PMA(dim_hidden, heads, num_outputs)
        self.dec = nn.Linear(dim_hidden, dim_out)

    def forward(self, X, set_sizes):
        N = X.shape[1]
        mask = torch.arange(N, device=X.device)[None, :] < set_sizes[:, None]
        H = self.enc2(self.enc1(X, mask), mask)
        return self.dec(self.pool(H, mask)).squeeze(1)


def build():
    torch.manual_seed(0)
    model = SetTransformer().eval()
    X = torch.randn(3, 8, 3)
    set_sizes = torch.tensor([8, 3, 6])
    return model, (X, set_sizes)
