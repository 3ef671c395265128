"""Mamba-2 block with the chunked SSD scan (segment sums, intra-chunk quadratic + inter-chunk state passing)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def segsum(x):
    """x: (..., T) -> (..., T, T) with out[i, j] = x[j+1] + ... + x[i] for j <= i, -inf above the diagonal"""
    T = x.size(-1)
    x = x[..., None].expand(*x.shape, T)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool), diagonal=-1)
    x = x.masked_fill(~mask, 0)
    x_segsum = torch.cumsum(x, dim=-2)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool), diagonal=0)
    return x_segsum.masked_fill(~mask, -torch.inf)


def ssd_chunked(X, A, B, C, block_len):
    """X: (b, l, h, p); A: (b, l, h); B, C: (b, l, h, n)"""
    b, l, h, p = X.shape
    c = l // block_len
    X, B, C = (t.reshape(b, c, block_len, h, -1) for t in (X, B, C))
    A = A.reshape(b, c, block_len, h).permute(0, 3, 1, 2)  # (b, h, c, l)
    A_cumsum = torch.cumsum(A, dim=-1)
    L = torch.exp(segsum(A))
    Y_diag = torch.einsum("bclhn,bcshn,bhcls,bcshp->bclhp", C, B, L, X)
    decay_states = torch.exp(A_cumsum[..., -1:] - A_cumsum)
    states = torch.einsum("bclhn,bhcl,bclhp->bchpn", B, decay_states, X)
    states = torch.cat([torch.zeros_like(states[:, :1]), states], dim=1)
    decay_chunk = torch.exp(segsum(F.pad(A_cumsum[..., -1], (1, 0))))
    states = torch.einsum("bhzc,bchpn->bzhpn", decay_chunk, states)[:, :-1]
    Y_off = torch.einsum("bclhn,bchpn,bhcl->bclhp", C, states, torch.exp(A_cumsum))
    return (Y_diag + Y_off).reshape(b, l, h, p)


class Mamba2Block(nn.Module):
    def __init__(self, dim=32, d_state=8, headdim=8, expand=2, d_conv=4, chunk=4):
        super().__init__()
        self.d_inner = expand * dim
        self.nheads, self.headdim, self.d_state, self.chunk = self.d_inner // headdim, headdim, d_state, chunk
        self.in_proj = nn.Linear(dim, 2 * self.d_inner + 2 * d_state + self.nheads, bias=False)
        conv_dim = self.d_inner + 2 * d_state
        self.conv1d = nn.Conv1d(conv_dim, conv_dim, d_conv, groups=conv_dim, padding=d_conv - 1)
        self.dt_bias = nn.Parameter(torch.rand(self.nheads) - 2)
        self.A_log = nn.Parameter(torch.log(torch.arange(1, self.nheads + 1).float()))
        self.D = nn.Parameter(torch.ones(self.nheads))
        self.norm = nn.RMSNorm(self.d_inner)
        self.out_proj = nn.Linear(self.d_inner, dim, bias=False)

    def forward(self, u):
        Bsz, L, _ = u.shape
        z, xBC, dt = self.in_proj(u).split([self.d_inner, self.d_inner + 2 * self.d_state, self.nheads], dim=-1)
        xBC = F.silu(self.conv1d(xBC.transpose(1, 2))[..., :L].transpose(1, 2))  # causal depthwise conv
        x, Bm, Cm = xBC.split([self.d_inner, self.d_state, self.d_state], dim=-1)
        dt = F.softplus(dt + self.dt_bias)
        A = -torch.exp(self.A_log)
        x = x.view(Bsz, L, self.nheads, self.headdim)
        Bm = Bm[:, :, None].expand(-1, -1, self.nheads, -1)
        Cm = Cm[:, :, None].expand(-1, -1, self.nheads, -1)
        y = ssd_chunked(x * dt[..., None], A * dt, Bm, Cm, self.chunk)
        y = y + x * self.D[:, None]
        y = self.norm(y.reshape(Bsz, L, -1) * F.silu(z))
        return self.out_proj(y)


class Mamba2LM(nn.Module):
    def __init__(self, vocab=50, dim=32, layers=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(nn.ModuleDict(dict(norm=nn.RMSNorm(dim), mixer=Mamba2Block(dim))) for _ in range(layers))
        self.norm_f = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        x = self.embedding(input_ids)
        for layer in self.layers:
            x = x + layer["mixer"](layer["norm"](x))
        return self.lm_head(self.norm_f(x))


def build():
    torch.manual_seed(0)
    return Mamba2LM().eval(), (torch.randint(0, 50, (2, 16)),)
