"""A sensor-set encoder through nn.MultiheadAttention whose isolated, silent sensor has no key to read: NaN only when run untraced.

Each sensor reads the sensors within range that reported. A sensor out of everyone's range that
did not report has every key masked: nn.MultiheadAttention's fused kernel, which torch runs in
eval mode without gradients, makes its row NaN (and the NaN spreads through the sample), while
the reference path a recording takes returns zeros for it. Fix: let every sensor read itself,
`allowed | torch.eye(...)`. Twin of ok_sensor_set_keeps_own_key.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("fully-masked-row",)


class SensorSet(nn.Module):
    def __init__(self, features: int = 4, d_model: int = 16, reach: float = 0.5):
        super().__init__()
        self.reach = reach
        self.embed = nn.Linear(features, d_model)
        self.attend = nn.MultiheadAttention(d_model, 2, batch_first=True)
        self.out = nn.Linear(d_model, features)

    def forward(self, readings: torch.Tensor, reported: torch.Tensor, where: torch.Tensor) -> torch.Tensor:
        x = self.embed(readings)
        allowed = (torch.cdist(where, where) < self.reach) & reported[:, None, :]
        blocked = (~allowed).repeat_interleave(self.attend.num_heads, dim=0)
        return self.out(x + self.attend(x, x, x, attn_mask=blocked, need_weights=False)[0])  # BUG: fully-masked-row


def build():
    torch.manual_seed(0)
    where = torch.rand(2, 6, 2) * 0.6
    where[0, 5] = torch.tensor([5.0, 5.0])  # out of everyone's range
    reported = torch.ones(2, 6, dtype=torch.bool)
    reported[0, 5] = False
    return SensorSet().eval(), (torch.randn(2, 6, 4), reported, where)
