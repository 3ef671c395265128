"""Player-trajectory forecasting from sports tracking data (basketball / soccer optical tracking).

Each clip has F frames of (x, y) positions for up to P players; rosters differ between clips, so
the player axis is padded and `player_mask` marks the players present. Blocks alternate attention
between the players of a frame and causal attention over the frames of a player; the head
predicts every player's displacement at the next frame.
"""
import torch
import torch.nn as nn


def to_scene_frame(xy):
    """positions relative to the scene centroid of each frame (translation invariance)"""
    centroid = xy.mean(dim=2, keepdim=True)
    return xy - centroid


class AgentTimeBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.agent_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.time_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, player_mask):
        B, F, P, D = x.shape
        h = self.ln1(x).reshape(B * F, P, D)
        a, _ = self.agent_attn(h, h, h, key_padding_mask=~player_mask.repeat_interleave(F, dim=0), need_weights=False)
        x = x + a.view(B, F, P, D)
        h = self.ln2(x).transpose(1, 2).reshape(B * P, F, D)
        causal = torch.ones(F, F, dtype=torch.bool, device=x.device).triu(1)
        a, _ = self.time_attn(h, h, h, attn_mask=causal, need_weights=False)
        x = x + a.view(B, P, F, D).transpose(1, 2)
        return x + self.ff(self.ln3(x))


class TrajectoryForecaster(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, n_teams=3):
        super().__init__()
        self.inp = nn.Linear(4, dim)
        self.team = nn.Embedding(n_teams, dim)               # home / away / ball
        self.blocks = nn.ModuleList([AgentTimeBlock(dim, heads) for _ in range(depth)])
        self.head = nn.Linear(dim, 2)

    def forward(self, xy, player_mask, team_ids):
        rel = to_scene_frame(xy)
        vel = torch.diff(xy, dim=1, prepend=xy[:, :1])
        x = self.inp(torch.cat([rel, vel], dim=-1)) + self.team(team_ids)[:, None]
        for blk in self.blocks:
            x = blk(x, player_mask)
        return self.head(x)                                  # (B, F, P, 2) next-frame displacement


def build():
    torch.manual_seed(0)
    model = TrajectoryForecaster().eval()
    B, F, P = 2, 8, 7
    xy = torch.cumsum(torch.randn(B, F, P, 2) * 0.3, dim=1) + torch.rand(B, 1, P, 2) * 20
    player_mask = torch.tensor([[1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0, 0]], dtype=torch.bool)
    xy = xy * player_mask[:, None, :, None]                 # absent players are zero-filled
    team_ids = torch.tensor([[0, 0, 0, 1, 1, 1, 2], [0, 0, 1, 1, 2, 0, 0]])
    return model, (xy, player_mask, team_ids)
