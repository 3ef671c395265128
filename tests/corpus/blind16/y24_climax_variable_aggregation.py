"""ClimaX-style weather encoder (Nguyen et al. 2023): per-variable patch tokens are aggregated
across variables by a learned-query cross-attention, then processed as one token per patch.

Inputs are raw gridded fields (e.g. geopotential, temperature, pressure in their units); each
variable has its own patch embedding. The variable-aggregation softmax is written out to
expose the per-variable weights for attribution maps.
"""
import torch
import torch.nn as nn


class VariableAggregation(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.query = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, tokens):                          # (B, V, L, D) -> (B, L, D)
        B, V, L, D = tokens.shape
        x = tokens.permute(0, 2, 1, 3).reshape(B * L, V, D)
        k = self.k(x).view(B * L, V, self.h, self.dh).transpose(1, 2)
        v = self.v(x).view(B * L, V, self.h, self.dh).transpose(1, 2)
        q = self.query.expand(B * L, 1, D).view(B * L, 1, self.h, self.dh).transpose(1, 2)
        logits = (q @ k.transpose(-1, -2)) * self.dh ** -0.5       # (BL, H, 1, V)
        w = torch.exp(logits)
        w = w / w.sum(dim=-1, keepdim=True)
        self.variable_weights = w
        out = (w @ v).transpose(1, 2).reshape(B * L, D)
        return self.o(out).view(B, L, D)


class ClimaXEncoder(nn.Module):
    def __init__(self, variables=("z500", "t850", "msl", "u10"), img=(16, 32), patch=4, dim=32, heads=4, depth=2):
        super().__init__()
        self.variables = variables
        self.patch = patch
        self.token_embeds = nn.ModuleList([nn.Conv2d(1, dim, patch, patch) for _ in variables])
        self.var_embed = nn.Parameter(torch.randn(1, len(variables), 1, dim) * 0.02)
        num_patches = (img[0] // patch) * (img[1] // patch)
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches, dim) * 0.02)
        self.lead_time_embed = nn.Linear(1, dim)
        self.var_agg = VariableAggregation(dim, heads)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, len(variables) * patch * patch)

    def forward(self, fields, lead_times):
        B, V, H, W = fields.shape
        toks = torch.stack([emb(fields[:, i:i + 1]).flatten(2).transpose(1, 2)
                            for i, emb in enumerate(self.token_embeds)], dim=1)   # (B, V, L, D)
        x = self.var_agg(toks + self.var_embed)
        x = x + self.pos_embed + self.lead_time_embed(lead_times[:, None])[:, None]
        x = self.norm(self.blocks(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = ClimaXEncoder().eval()
    g = torch.Generator().manual_seed(3)
    fields = torch.stack([
        5500.0 * 9.81 + 800.0 * torch.randn(2, 16, 32, generator=g),     # z500, m^2 s^-2
        270.0 + 10.0 * torch.randn(2, 16, 32, generator=g),              # t850, K
        101325.0 + 900.0 * torch.randn(2, 16, 32, generator=g),          # msl, Pa
        5.0 * torch.randn(2, 16, 32, generator=g),                       # u10, m/s
    ], dim=1)
    lead_times = torch.tensor([6.0, 24.0])
    return model, (fields, lead_times)
