"""Entity transformer for a real-time-strategy agent (AlphaStar-style entity encoder).

The observation is a variable-size set of units; each unit is a feature vector and
`entity_mask` marks the real units. Units attend to each other, the set is summarised with a
masked max-pool for the value head, and the policy picks which unit to select.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EntityEncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.in_proj = nn.Linear(d, 3 * d)
        self.out_proj = nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

    def forward(self, x, can_attend):  # can_attend: (B, 1, 1, N) bool, True = real unit
        B, N, d = x.shape
        q, k, v = self.in_proj(self.ln1(x)).split(d, dim=-1)
        q, k, v = (t.view(B, N, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=can_attend)
        x = x + self.out_proj(a.transpose(1, 2).reshape(B, N, d))
        return x + self.mlp(self.ln2(x))


class EntityAgent(nn.Module):
    def __init__(self, feat=20, n_unit_types=10, d=32, heads=4, depth=2):
        super().__init__()
        self.type_emb = nn.Embedding(n_unit_types, d)
        self.feat_proj = nn.Linear(feat, d)
        self.layers = nn.ModuleList([EntityEncoderLayer(d, heads) for _ in range(depth)])
        self.select = nn.Linear(d, 1)
        self.value = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 1))

    def forward(self, unit_types, unit_feats, entity_mask):
        x = self.type_emb(unit_types) + self.feat_proj(unit_feats)
        real = entity_mask.bool()
        can_attend = real[:, None, None, :]
        for layer in self.layers:
            x = layer(x, can_attend)
        pooled = x.masked_fill(~real.unsqueeze(-1), float("-inf")).amax(dim=1)
        select_logits = self.select(x).squeeze(-1).masked_fill(~real, -1e9)
        return F.log_softmax(select_logits, dim=-1), self.value(pooled).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = EntityAgent().eval()
    B, N = 3, 16
    unit_types = torch.randint(0, 10, (B, N))
    unit_feats = torch.randn(B, N, 20)
    entity_mask = torch.zeros(B, N, dtype=torch.long)
    entity_mask[0, :16] = 1
    entity_mask[1, :5] = 1
    entity_mask[2, :11] = 1
    return model, (unit_types, unit_feats, entity_mask)
