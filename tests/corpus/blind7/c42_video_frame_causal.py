import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class FrameCausalAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d)

    def forward(self, x, frame_idx):
        q, k, v = rearrange(self.qkv(x), "b n (three h d) -> three b h n d", three=3, h=self.h)
        mask = frame_idx[:, None] >= frame_idx[None, :]
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(rearrange(o, "b h n d -> b n (h d)"))


class CausalVideoTransformer(nn.Module):
    def __init__(self, patch_dim=48, d=32, heads=4, depth=2, frames=4, patches_per_frame=4):
        super().__init__()
        self.frames = frames
        self.ppf = patches_per_frame
        self.embed = nn.Linear(patch_dim, d)
        self.frame_pos = nn.Parameter(torch.randn(frames, 1, d) * 0.02)
        self.patch_pos = nn.Parameter(torch.randn(1, patches_per_frame, d) * 0.02)
        self.blocks = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(d), FrameCausalAttention(d, heads), nn.LayerNorm(d),
                            nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))]) for _ in range(depth)]
        )
        self.norm = nn.LayerNorm(d)

    def forward(self, patches):
        B, T, P, _ = patches.shape
        x = self.embed(patches) + (self.frame_pos[:T] + self.patch_pos)
        x = rearrange(x, "b t p d -> b (t p) d")
        frame_idx = torch.arange(T, device=x.device).repeat_interleave(P)
        for n1, attn, n2, ff in self.blocks:
            x = x + attn(n1(x), frame_idx)
            x = x + ff(n2(x))
        return rearrange(self.norm(x), "b (t p) d -> b t p d", t=T)


def build():
    torch.manual_seed(0)
    model = CausalVideoTransformer().eval()
    patches = torch.randn(2, 4, 4, 48)
    return model, (patches,)
