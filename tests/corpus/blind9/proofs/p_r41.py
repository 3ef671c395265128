import torch
from lib import *
FIX = [('shifted_x = torch.roll(x, shifts=(self.shift_size, self.shift_size), dims=(1, 2))', 'shifted_x = torch.roll(x, shifts=(-self.shift_size, -self.shift_size), dims=(1, 2))'), ('x = torch.roll(shifted_x, shifts=(-self.shift_size, -self.shift_size), dims=(1, 2))', 'x = torch.roll(shifted_x, shifts=(self.shift_size, self.shift_size), dims=(1, 2))')]
from swinprobe import dep_map
N = "r41_window_backbone"
dm = dep_map(N, 63)
expected = torch.zeros(8, 8, dtype=torch.bool); expected[4:8, 4:8] = True
outside = dm[~expected].max().item()
corner = dm[0, 0].item()
assert outside > 1e-2
tw, twr = twin_diff(N, FIX)
report(name=N, verdict="buggy", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, harm="axis", dep_outside_expected_region_tok63=outside, dep_on_far_corner_patch00=corner,
       note="roll direction does not match the region mask built for a negative shift: wrapped-around tokens from the opposite image corner share an unmasked window")
