"""Player tracking whose scene centroid averages every player slot, the absent players' zeros included.

Clips have frames × players × (x, y); rosters differ, so the player axis is padded and
`present` marks who is there. Attention over the players of a frame hides the absent ones, but
the centroid is `xy.mean(dim=2)` over every slot, so each real player's relative position moves
with what the absent slots hold. Padding is told on the players (the team ids' sequence), which
the positions hold in their third dim: the padding witness changes both. Fix: average over the
present players only. Twin of ok_tracking_centroid_present_players.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("padding-leak",)


class Tracker(nn.Module):
    def __init__(self, d_model: int = 16, teams: int = 3):
        super().__init__()
        self.position = nn.Linear(2, d_model)
        self.team = nn.Embedding(teams, d_model)
        self.attend = nn.MultiheadAttention(d_model, 2, batch_first=True)
        self.head = nn.Linear(d_model, 2)

    def forward(self, xy: torch.Tensor, present: torch.Tensor, team_ids: torch.Tensor) -> torch.Tensor:
        B, F, P, _ = xy.shape
        centroid = xy.mean(dim=2, keepdim=True)  # BUG: padding-leak
        x = (self.position(xy - centroid) + self.team(team_ids)[:, None]).reshape(B * F, P, -1)
        hidden = ~present.repeat_interleave(F, dim=0)
        x = x + self.attend(x, x, x, key_padding_mask=hidden, need_weights=False)[0]
        return self.head(x).view(B, F, P, 2)


def build():
    torch.manual_seed(0)
    present = torch.tensor([[True, True, True, True, True], [True, True, True, False, False]])
    xy = torch.randn(2, 6, 5, 2) * 10 * present[:, None, :, None]
    return Tracker().eval(), (xy, present, torch.tensor([[0, 0, 1, 1, 2], [0, 1, 1, 0, 0]]))
