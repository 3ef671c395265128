import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, q_dim, kv_dim, heads, dim_head):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.to_q = nn.Linear(q_dim, inner, bias=False)
        self.to_kv = nn.Linear(kv_dim, 2 * inner, bias=False)
        self.to_out = nn.Linear(inner, q_dim)

    def forward(self, x, context=None, mask=None):
        context = x if context is None else context
        B, Nq, _ = x.shape
        Nk = context.shape[1]
        q = self.to_q(x).view(B, Nq, self.heads, -1).transpose(1, 2)
        k, v = self.to_kv(context).chunk(2, dim=-1)
        k = k.view(B, Nk, self.heads, -1).transpose(1, 2)
        v = v.view(B, Nk, self.heads, -1).transpose(1, 2)
        attn_mask = None if mask is None else mask[:, None, None, :]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return self.to_out(out.transpose(1, 2).reshape(B, Nq, -1))


class PerceiverResampler(nn.Module):
    def __init__(self, input_dim=24, latent_dim=32, num_latents=6, heads=4, depth=2):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim) * 0.02)
        self.cross_norm_q = nn.LayerNorm(latent_dim)
        self.cross_norm_kv = nn.LayerNorm(input_dim)
        self.cross_attn = Attention(latent_dim, input_dim, 1, 32)
        self.self_blocks = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(latent_dim), Attention(latent_dim, latent_dim, heads, 8),
                            nn.LayerNorm(latent_dim), nn.Linear(latent_dim, latent_dim)]) for _ in range(depth)]
        )
        self.out_norm = nn.LayerNorm(latent_dim)

    def forward(self, inputs, input_mask):
        B = inputs.shape[0]
        lat = self.latents.unsqueeze(0).expand(B, -1, -1)
        lat = lat + self.cross_attn(self.cross_norm_q(lat), self.cross_norm_kv(inputs), mask=input_mask)
        for norm_a, attn, norm_f, ff in self.self_blocks:
            lat = lat + attn(norm_a(lat))
            lat = lat + ff(F.gelu(norm_f(lat)))
        return self.out_norm(lat)


def build():
    torch.manual_seed(0)
    model = PerceiverResampler().eval()
    inputs = torch.randn(2, 10, 24)
    input_mask = torch.zeros(2, 10, dtype=torch.bool)
    input_mask[0, :10] = True
    input_mask[1, :4] = True
    return model, (inputs, input_mask)
