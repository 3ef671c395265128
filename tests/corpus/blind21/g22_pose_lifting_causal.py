"""Real-time 3D human pose lifting from 2D keypoints (MixSTE-style, causal in time).

Input: (B, F, J, 2) detected keypoints in pixels; output: (B, F, J, 3) root-relative 3D joints.
Blocks alternate attention between the joints of a frame and causal attention over the frames of
each joint, so the pose of frame f is available as soon as frame f arrives.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AxisAttention(nn.Module):
    """multi-head self-attention along the sequence axis of (N, L, C)"""

    def __init__(self, dim, heads, causal=False):
        super().__init__()
        self.heads, self.causal = heads, causal
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        N, L, C = x.shape
        q, k, v = self.qkv(x).view(N, L, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return self.proj(o.transpose(1, 2).reshape(N, L, C))


class STBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln_s, self.ln_t, self.ln_f = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.joint_attn = AxisAttention(dim, heads)
        self.frame_attn = AxisAttention(dim, heads, causal=True)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        B, F_, J, C = x.shape
        x = x + self.joint_attn(self.ln_s(x).reshape(B * F_, J, C)).view(B, F_, J, C)
        h = self.ln_t(x).transpose(1, 2).reshape(B * J, F_, C)
        x = x + self.frame_attn(h).view(B, J, F_, C).transpose(1, 2)
        return x + self.ff(self.ln_f(x))


class PoseLifter(nn.Module):
    def __init__(self, joints=9, dim=32, heads=4, depth=2, max_frames=81):
        super().__init__()
        self.embed = nn.Linear(2, dim)
        self.frame_pos = nn.Parameter(torch.randn(max_frames, dim) * 0.02)
        self.joint_pos = nn.Parameter(torch.randn(joints, dim) * 0.02)
        self.blocks = nn.ModuleList([STBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 3)

    def forward(self, keypoints, image_wh):
        B, F_, J, _ = keypoints.shape
        kp = keypoints / image_wh[:, None, None, :] * 2.0 - 1.0            # screen coords in [-1, 1]
        x = self.embed(kp)
        x = x + self.frame_pos[:F_].unsqueeze(1) + self.joint_pos
        for blk in self.blocks:
            x = blk(x)
        pose = self.head(self.norm(x))
        return pose - pose[:, :, :1]                                         # root (pelvis) relative


def build():
    torch.manual_seed(0)
    model = PoseLifter().eval()
    image_wh = torch.tensor([[1920.0, 1080.0], [1280.0, 720.0]])
    keypoints = torch.rand(2, 9, 9, 2) * image_wh[:, None, None, :]      # 9 frames x 9 joints
    return model, (keypoints, image_wh)
