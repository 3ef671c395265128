"""A sensor-set encoder through nn.MultiheadAttention whose mask lets every sensor read itself, besides its reporting neighbours.

Each sensor reads the sensors within range that reported; a sensor out of everyone's range, or
one that did not report, still sees its own key, so no row of the mask is empty. Twin of
fully_masked_row_sensor_set_isolated, whose isolated sensor has no key at all: NaN on the fused
path torch takes untraced (eval, no gradients), zeros on the path a recording takes.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


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
        allowed = allowed | torch.eye(where.shape[1], dtype=torch.bool)
        blocked = (~allowed).repeat_interleave(self.attend.num_heads, dim=0)
        return self.out(x + self.attend(x, x, x, attn_mask=blocked, need_weights=False)[0])


def build():
    torch.manual_seed(0)
    where = torch.rand(2, 6, 2) * 0.6
    where[0, 5] = torch.tensor([5.0, 5.0])  # out of everyone's range
    reported = torch.ones(2, 6, dtype=torch.bool)
    reported[0, 5] = False
    return SensorSet().eval(), (torch.randn(2, 6, 4), reported, where)
