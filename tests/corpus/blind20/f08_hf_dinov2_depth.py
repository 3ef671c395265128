"""Monocular depth estimation: DPT decoder (Ranftl et al., ICCV 2021) on a DINOv2 backbone
(transformers), the Depth-Anything layout.

Tokens from four backbone layers are "reassembled" into image-like maps: the CLS readout is
concatenated to every patch token and projected ("project" readout), the patch tokens are laid
back onto the (H/p) x (W/p) grid in row-major order, and each map is resampled to its own scale
(4x, 2x, 1x, 1/2x). A RefineNet-style fusion goes from coarse to fine; the head outputs a
non-negative depth map at the input resolution. Training crops are 32 x 48 (a 4 x 6 patch grid;
DINOv2 interpolates its square position table to the grid).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import Dinov2Config, Dinov2Model


class Reassemble(nn.Module):
    def __init__(self, dim, ch, scale):
        super().__init__()
        self.readout = nn.Sequential(nn.Linear(2 * dim, dim), nn.GELU())
        self.proj = nn.Conv2d(dim, ch, 1)
        if scale > 1:
            self.resample = nn.ConvTranspose2d(ch, ch, scale, stride=scale)
        elif scale == 1:
            self.resample = nn.Identity()
        else:
            self.resample = nn.Conv2d(ch, ch, 3, stride=2, padding=1)

    def forward(self, tokens, grid):
        h, w = grid
        cls, patches = tokens[:, :1], tokens[:, 1:]
        x = self.readout(torch.cat([patches, cls.expand_as(patches)], dim=-1))
        x = x.transpose(1, 2).reshape(x.size(0), x.size(2), h, w)
        return self.resample(self.proj(x))


class ResidualConvUnit(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.c1, self.c2 = nn.Conv2d(ch, ch, 3, padding=1), nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return x + self.c2(F.relu(self.c1(F.relu(x))))


class DPTDepth(nn.Module):
    def __init__(self, config, ch=16, taps=(1, 2, 3, 4), scales=(4, 2, 1, 0.5)):
        super().__init__()
        self.patch = config.patch_size
        self.taps = taps
        self.backbone = Dinov2Model(config)
        dim = config.hidden_size
        self.reassemble = nn.ModuleList(Reassemble(dim, ch, s) for s in scales)
        self.rcu_in = nn.ModuleList(ResidualConvUnit(ch) for _ in scales)
        self.rcu_out = nn.ModuleList(ResidualConvUnit(ch) for _ in scales)
        self.head = nn.Sequential(nn.Conv2d(ch, ch // 2, 3, padding=1), nn.ReLU(), nn.Conv2d(ch // 2, 1, 1))

    def forward(self, pixel_values):
        H, W = pixel_values.shape[-2:]
        grid = (H // self.patch, W // self.patch)
        hidden = self.backbone(pixel_values, output_hidden_states=True).hidden_states
        maps = [rs(hidden[t], grid) for rs, t in zip(self.reassemble, self.taps)]
        fused = None
        for i in reversed(range(len(maps))):
            x = self.rcu_in[i](maps[i])
            if fused is not None:
                x = x + F.interpolate(fused, size=x.shape[-2:], mode="bilinear", align_corners=False)
            fused = self.rcu_out[i](x)
        depth = self.head(F.interpolate(fused, size=(H, W), mode="bilinear", align_corners=False))
        return F.relu(depth).squeeze(1)


def build():
    torch.manual_seed(0)
    config = Dinov2Config(image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=4,
                          num_attention_heads=4, mlp_ratio=2)
    model = DPTDepth(config).eval()
    pixel_values = torch.randn(2, 3, 32, 48)
    return model, (pixel_values,)
