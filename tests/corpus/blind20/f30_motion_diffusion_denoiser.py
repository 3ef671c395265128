"""Text-to-motion diffusion denoiser in the style of MDM (Tevet et al., ICLR 2023).

The denoiser predicts the clean motion x0 from a noised motion x_t. The diffusion step and the
(CLIP) text embedding are fused into one conditioning token that is prepended to the frame
tokens; a Transformer encoder reads [cond, frame_1 .. frame_T]. Motions in a batch have
different lengths and are padded at the end (frame_mask == 0); classifier-free guidance drops
the text with a per-sample mask during training only.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TimestepEmbedder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
        ang = t.float()[:, None] * freqs[None]
        return self.mlp(torch.cat([ang.cos(), ang.sin()], dim=-1))


class MotionDenoiser(nn.Module):
    def __init__(self, n_feats=24, text_dim=40, dim=32, heads=4, depth=2, max_frames=64, cond_drop=0.1):
        super().__init__()
        self.cond_drop = cond_drop
        self.input_proc = nn.Linear(n_feats, dim)
        self.time_emb = TimestepEmbedder(dim)
        self.text_proj = nn.Linear(text_dim, dim)
        self.pos = nn.Parameter(torch.randn(1, max_frames + 1, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.1, activation="gelu", batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.output_proc = nn.Linear(dim, n_feats)

    def forward(self, x_t, timesteps, text_emb, frame_mask):
        B, T, _ = x_t.shape
        text = self.text_proj(text_emb)
        if self.training and self.cond_drop > 0:
            keep = torch.rand(B, 1, device=x_t.device) >= self.cond_drop
            text = text * keep
        cond = (self.time_emb(timesteps) + text).unsqueeze(1)
        seq = torch.cat([cond, self.input_proc(x_t)], dim=1) + self.pos[:, : T + 1]
        pad = F.pad(~frame_mask.bool(), (0, 1), value=False)
        h = self.encoder(seq, src_key_padding_mask=pad)
        return self.output_proc(h[:, 1:])


def build():
    torch.manual_seed(0)
    model = MotionDenoiser().eval()
    x_t = torch.randn(3, 20, 24)
    frame_mask = torch.ones(3, 20, dtype=torch.long)
    frame_mask[1, 14:] = 0
    frame_mask[2, 9:] = 0
    x_t[frame_mask == 0] = 0.0
    timesteps = torch.tensor([10, 500, 999])
    text_emb = torch.randn(3, 40)
    return model, (x_t, timesteps, text_emb, frame_mask)
