import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def selective_scan(u, delta, A, Bm, Cm, D):
    b, T, di = u.shape
    dA = torch.exp(delta.unsqueeze(-1) * A)
    dBu = delta.unsqueeze(-1) * Bm.unsqueeze(2) * u.unsqueeze(-1)
    h = u.new_zeros(b, di, A.shape[1])
    ys = []
    for t in range(T):
        h = dA[:, t] * h + dBu[:, t]
        ys.append((h * Cm[:, t].unsqueeze(1)).sum(-1))
    return torch.stack(ys, dim=1) + u * D


class MambaMixer(nn.Module):
    def __init__(self, d_model=32, d_state=8, d_conv=4, expand=2):
        super().__init__()
        self.d_inner = expand * d_model
        self.d_state = d_state
        self.dt_rank = math.ceil(d_model / 16)
        self.in_proj = nn.Linear(d_model, 2 * self.d_inner, bias=False)
        self.conv1d = nn.Conv1d(self.d_inner, self.d_inner, d_conv, groups=self.d_inner, padding=d_conv // 2)
        self.x_proj = nn.Linear(self.d_inner, self.dt_rank + 2 * d_state, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, self.d_inner)
        A = torch.arange(1, d_state + 1, dtype=torch.float32).repeat(self.d_inner, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(self.d_inner))
        self.out_proj = nn.Linear(self.d_inner, d_model, bias=False)

    def forward(self, x):
        T = x.shape[1]
        xs, z = self.in_proj(x).chunk(2, dim=-1)
        xs = self.conv1d(xs.transpose(1, 2))[..., :T].transpose(1, 2)
        xs = F.silu(xs)
        dt, Bm, Cm = self.x_proj(xs).split([self.dt_rank, self.d_state, self.d_state], dim=-1)
        dt = F.softplus(self.dt_proj(dt))
        A = -torch.exp(self.A_log)
        y = selective_scan(xs, dt, A, Bm, Cm, self.D)
        return self.out_proj(y * F.silu(z))


class MambaLM(nn.Module):
    def __init__(self, vocab=40, d=32, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([nn.ModuleList([nn.RMSNorm(d), MambaMixer(d)]) for _ in range(n_layers)])
        self.norm_f = nn.RMSNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        for norm, mixer in self.layers:
            x = x + mixer(norm(x))
        return self.lm_head(self.norm_f(x))


def build():
    torch.manual_seed(0)
    model = MambaLM().eval()
    tokens = torch.randint(0, 40, (2, 10))
    return model, (tokens,)
