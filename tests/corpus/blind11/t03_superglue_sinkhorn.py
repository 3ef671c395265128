"""SuperGlue-style matcher: attentional GNN over two keypoint sets, then log-space Sinkhorn with a dustbin."""
import copy

import torch
import torch.nn as nn


def attention(query, key, value):
    dim = query.shape[1]
    scores = torch.einsum("bdhn,bdhm->bhnm", query, key) / dim ** 0.5
    prob = torch.nn.functional.softmax(scores, dim=-1)
    return torch.einsum("bhnm,bdhm->bdhn", prob, value), prob


class MultiHeadedAttention(nn.Module):
    def __init__(self, num_heads, d_model):
        super().__init__()
        self.dim = d_model // num_heads
        self.num_heads = num_heads
        self.merge = nn.Conv1d(d_model, d_model, kernel_size=1)
        self.proj = nn.ModuleList([copy.deepcopy(self.merge) for _ in range(3)])

    def forward(self, query, key, value):
        batch_dim = query.size(0)
        query, key, value = [l(x).view(batch_dim, self.dim, self.num_heads, -1) for l, x in zip(self.proj, (query, key, value))]
        x, _ = attention(query, key, value)
        return self.merge(x.contiguous().view(batch_dim, self.dim * self.num_heads, -1))


class AttentionalPropagation(nn.Module):
    def __init__(self, feature_dim, num_heads):
        super().__init__()
        self.attn = MultiHeadedAttention(num_heads, feature_dim)
        self.mlp = nn.Sequential(
            nn.Conv1d(feature_dim * 2, feature_dim * 2, 1), nn.ReLU(), nn.Conv1d(feature_dim * 2, feature_dim, 1)
        )

    def forward(self, x, source):
        message = self.attn(x, source, source)
        return self.mlp(torch.cat([x, message], dim=1))


def log_sinkhorn_iterations(Z, log_mu, log_nu, iters):
    u, v = torch.zeros_like(log_mu), torch.zeros_like(log_nu)
    for _ in range(iters):
        u = log_mu - torch.logsumexp(Z + v.unsqueeze(1), dim=2)
        v = log_nu - torch.logsumexp(Z + u.unsqueeze(2), dim=1)
    return Z + u.unsqueeze(2) + v.unsqueeze(1)


def log_optimal_transport(scores, alpha, iters):
    b, m, n = scores.shape
    one = scores.new_tensor(1)
    ms, ns = (m * one).to(scores), (n * one).to(scores)
    bins0 = alpha.expand(b, m, 1)
    bins1 = alpha.expand(b, 1, n)
    alpha = alpha.expand(b, 1, 1)
    couplings = torch.cat([torch.cat([scores, bins0], -1), torch.cat([bins1, alpha], -1)], 1)
    norm = -(ms + ns).log()
    log_mu = torch.cat([norm.expand(m), ns.log()[None] + norm])
    log_nu = torch.cat([norm.expand(n), ms.log()[None] + norm])
    log_mu, log_nu = log_mu[None].expand(b, -1), log_nu[None].expand(b, -1)
    Z = log_sinkhorn_iterations(couplings, log_mu, log_nu, iters)
    return Z - norm


class TinySuperGlue(nn.Module):
    def __init__(self, dim=32, heads=4, layers=("self", "cross", "self", "cross"), iters=20):
        super().__init__()
        self.kenc = nn.Sequential(nn.Conv1d(3, dim, 1), nn.ReLU(), nn.Conv1d(dim, dim, 1))
        self.layers = nn.ModuleList(AttentionalPropagation(dim, heads) for _ in layers)
        self.names = layers
        self.final_proj = nn.Conv1d(dim, dim, 1)
        self.bin_score = nn.Parameter(torch.tensor(1.0))
        self.iters = iters

    def forward(self, desc0, kpts0, desc1, kpts1):
        desc0 = desc0 + self.kenc(kpts0.transpose(1, 2))
        desc1 = desc1 + self.kenc(kpts1.transpose(1, 2))
        for layer, name in zip(self.layers, self.names):
            src0, src1 = (desc1, desc0) if name == "cross" else (desc0, desc1)
            delta0, delta1 = layer(desc0, src0), layer(desc1, src1)
            desc0, desc1 = desc0 + delta0, desc1 + delta1
        mdesc0, mdesc1 = self.final_proj(desc0), self.final_proj(desc1)
        scores = torch.einsum("bdn,bdm->bnm", mdesc0, mdesc1) / mdesc0.shape[1] ** 0.5
        return log_optimal_transport(scores, self.bin_score, self.iters)


def build():
    torch.manual_seed(0)
    model = TinySuperGlue().eval()
    desc0, desc1 = torch.randn(2, 32, 7), torch.randn(2, 32, 9)
    kpts0, kpts1 = torch.rand(2, 7, 3), torch.rand(2, 9, 3)
    return model, (desc0, kpts0, desc1, kpts1)
