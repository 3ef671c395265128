"""Temporal Fusion Transformer (Lim et al., IJF 2021) for multi-horizon quantile forecasting.

Variable selection networks weight the input variables of each time step (softmax over the
VARIABLE axis, then a weighted sum of the per-variable embeddings); an LSTM encoder-decoder does
local processing over [past | future]; interpretable multi-head attention shares one value
projection across heads and averages the heads' attention matrices, with a decoder (causal) mask;
quantile heads read the future positions.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GRN(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.skip = nn.Linear(d_in, d_out) if d_in != d_out else nn.Identity()
        self.fc1, self.fc2 = nn.Linear(d_in, d_hidden), nn.Linear(d_hidden, d_hidden)
        self.gate = nn.Linear(d_hidden, 2 * d_out)
        self.norm = nn.LayerNorm(d_out)

    def forward(self, a):
        h = self.fc2(F.elu(self.fc1(a)))
        return self.norm(self.skip(a) + F.glu(self.gate(h), dim=-1))


class VariableSelection(nn.Module):
    def __init__(self, n_vars, d):
        super().__init__()
        self.var_emb = nn.ModuleList(nn.Linear(1, d) for _ in range(n_vars))
        self.var_grn = nn.ModuleList(GRN(d, d, d) for _ in range(n_vars))
        self.select = GRN(n_vars * d, d, n_vars)

    def forward(self, x):
        e = torch.stack([emb(x[..., i:i + 1]) for i, emb in enumerate(self.var_emb)], dim=-2)
        w = self.select(e.flatten(-2)).unsqueeze(-1).softmax(dim=-2)
        processed = torch.stack([grn(e[..., i, :]) for i, grn in enumerate(self.var_grn)], dim=-2)
        return (w * processed).sum(dim=-2)


class InterpretableMHA(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.dh = heads, d // heads
        self.q, self.k = nn.Linear(d, d), nn.Linear(d, d)
        self.v = nn.Linear(d, self.dh)
        self.out = nn.Linear(self.dh, d)

    def forward(self, x):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.heads, self.dh).transpose(1, 2)
        k = self.k(x).view(B, T, self.heads, self.dh).transpose(1, 2)
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        attn = (q @ k.transpose(-1, -2) / self.dh ** 0.5).masked_fill(future, float("-inf")).softmax(-1)
        return self.out(attn.mean(dim=1) @ self.v(x))


class TemporalFusionTransformer(nn.Module):
    def __init__(self, n_past=3, n_future=2, d=32, heads=4, quantiles=(0.1, 0.5, 0.9)):
        super().__init__()
        self.vs_past, self.vs_future = VariableSelection(n_past, d), VariableSelection(n_future, d)
        self.lstm_enc = nn.LSTM(d, d, batch_first=True)
        self.lstm_dec = nn.LSTM(d, d, batch_first=True)
        self.post_lstm = nn.Sequential(nn.Linear(d, 2 * d), nn.GLU(dim=-1))
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = InterpretableMHA(d, heads)
        self.post_attn = nn.Sequential(nn.Linear(d, 2 * d), nn.GLU(dim=-1))
        self.pos_wise = GRN(d, d, d)
        self.quantile_head = nn.Linear(d, len(quantiles))

    def forward(self, past_inputs, future_known):
        Tf = future_known.size(1)
        xp, xf = self.vs_past(past_inputs), self.vs_future(future_known)
        hp, state = self.lstm_enc(xp)
        hf, _ = self.lstm_dec(xf, state)
        x = torch.cat([xp, xf], dim=1)
        phi = self.norm1(x + self.post_lstm(torch.cat([hp, hf], dim=1)))
        delta = self.norm2(phi + self.post_attn(self.attn(phi)))
        return self.quantile_head(self.pos_wise(delta)[:, -Tf:])


def build():
    torch.manual_seed(0)
    model = TemporalFusionTransformer().eval()
    past_inputs = torch.randn(3, 12, 3)
    future_known = torch.randn(3, 6, 2)
    return model, (past_inputs, future_known)
