"""Learned queries reading image patches, padded at the right and bottom of each image, and the 0/1 patch mask turned into SDPA's keep-mask: correct.

`patch_mask` is 1 on real patches and 0 on padding, an `attention_mask`'s convention, flattened
row by row from each image's grid, so its zeros form a column or the last rows, not a run at the
end. SDPA's boolean mask means True = attend, so `patch_mask.bool()` keeps the real patches.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class PatchReader(nn.Module):
    def __init__(self, width: int = 16, queries: int = 3):
        super().__init__()
        self.queries = nn.Parameter(torch.randn(queries, width))
        self.kv = nn.Linear(width, 2 * width)

    def forward(self, patches, patch_mask):
        k, v = self.kv(patches).chunk(2, dim=-1)
        q = self.queries.expand(patches.shape[0], -1, -1)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=patch_mask[:, None, :].bool()).mean(1)


def build():
    torch.manual_seed(0)
    grid = torch.ones(3, 3, 3, dtype=torch.long)
    grid[0, :, 2:] = 0  # a narrower image: its last patch column is padding
    grid[2, 2:, :] = 0  # a shorter one: its last patch row
    return PatchReader().eval(), (torch.randn(3, 9, 16), grid.flatten(1))
