"""Autoregressive video world model over VAE latents: every patch of frame f attends to all
patches of frames <= f (block-causal attention), predicting the next frame's latents."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BlockCausalAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask):
        B, L, D = x.shape
        q, k, v = self.qkv(x).reshape(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.proj(out.transpose(1, 2).reshape(B, L, D))


class WorldModel(nn.Module):
    def __init__(self, latent_ch=8, dim=48, heads=4, depth=2, max_frames=8, patches=6):
        super().__init__()
        self.patch_in = nn.Linear(latent_ch, dim)
        self.frame_emb = nn.Parameter(torch.randn(max_frames, 1, dim) * 0.02)
        self.patch_emb = nn.Parameter(torch.randn(1, patches, dim) * 0.02)
        self.attn = nn.ModuleList(BlockCausalAttention(dim, heads) for _ in range(depth))
        self.mlp = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)) for _ in range(depth)
        )
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.out = nn.Linear(dim, latent_ch)

    def forward(self, latents):
        B, Fr, P, C = latents.shape
        x = self.patch_in(latents) + self.frame_emb[:Fr] + self.patch_emb
        x = x.reshape(B, Fr * P, -1)
        frame_causal = torch.ones(Fr, Fr, dtype=torch.bool, device=x.device).tril()
        mask = frame_causal.repeat(P, P)
        for attn, norm, mlp in zip(self.attn, self.norms, self.mlp):
            x = x + attn(norm(x), mask)
            x = x + mlp(x)
        return self.out(x).reshape(B, Fr, P, C)


def build():
    torch.manual_seed(0)
    model = WorldModel().eval()
    latents = torch.randn(2, 4, 6, 8)  # (batch, frames, patches, channels)
    return model, (latents,)
