import torch
import torch.nn as nn


class PerceiverBlock(nn.Module):
    def __init__(self, d_latent=32, d_input=16, heads=4):
        super().__init__()
        self.cross = nn.MultiheadAttention(d_latent, heads, kdim=d_input, vdim=d_input, batch_first=True)
        self.self_attn = nn.MultiheadAttention(d_latent, heads, batch_first=True)
        self.ln_latent = nn.LayerNorm(d_latent)
        self.ln_input = nn.LayerNorm(d_input)
        self.ln_self = nn.LayerNorm(d_latent)
        self.ln_ff = nn.LayerNorm(d_latent)
        self.ff = nn.Sequential(nn.Linear(d_latent, 64), nn.GELU(), nn.Linear(64, d_latent))

    def forward(self, latents, inputs, input_pad_mask):
        kv = self.ln_input(inputs)
        q = self.ln_latent(latents)
        latents = latents + self.cross(q, kv, kv, key_padding_mask=input_pad_mask, need_weights=False)[0]
        h = self.ln_self(latents)
        latents = latents + self.self_attn(h, h, h, need_weights=False)[0]
        return latents + self.ff(self.ln_ff(latents))


class SetEncoder(nn.Module):
    def __init__(self, n_latents=4, d_latent=32, d_input=16, n_out=3):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(n_latents, d_latent) * 0.2)
        self.block1 = PerceiverBlock(d_latent, d_input)
        self.block2 = PerceiverBlock(d_latent, d_input)
        self.out = nn.Linear(d_latent, n_out)

    def forward(self, points, pad_mask):
        lat = self.latents.unsqueeze(0).expand(points.size(0), -1, -1)
        lat = self.block1(lat, points, pad_mask)
        lat = self.block2(lat, points, pad_mask)
        return self.out(lat.mean(dim=1))


def build():
    torch.manual_seed(0)
    model = SetEncoder().eval()
    points = torch.randn(3, 9, 16)
    pad_mask = torch.zeros(3, 9, dtype=torch.bool)
    pad_mask[1, 6:] = True
    pad_mask[2, 3:] = True
    return model, (points, pad_mask)
