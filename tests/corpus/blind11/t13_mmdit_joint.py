"""SD3-style MMDiT block: text and image tokens with separate weights, one joint attention over both."""
import torch
import torch.nn as nn


def modulate(x, shift, scale):
    return x * (1 + scale[:, None]) + shift[:, None]


class StreamWeights(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.adaLN = nn.Sequential(nn.SiLU(), nn.Linear(dim, 6 * dim))
        self.norm1 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))

    def pre(self, x, c):
        mods = self.adaLN(c).chunk(6, dim=-1)
        return self.qkv(modulate(self.norm1(x), mods[0], mods[1])), mods

    def post(self, x, attn_out, mods):
        x = x + mods[2][:, None] * self.proj(attn_out)
        return x + mods[5][:, None] * self.mlp(modulate(self.norm2(x), mods[3], mods[4]))


def joint_attention(q, k, v, key_keep):
    scale = q.size(-1) ** -0.5
    attn = (q @ k.transpose(-2, -1)) * scale
    attn = attn.softmax(dim=-1)
    attn = attn * key_keep[:, None, None, :]
    return attn @ v


class MMDiTBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.context = StreamWeights(dim)
        self.x = StreamWeights(dim)

    def forward(self, context, x, c, context_mask):
        B, Lc, D = context.shape
        Lx = x.size(1)
        qkv_c, mods_c = self.context.pre(context, c)
        qkv_x, mods_x = self.x.pre(x, c)
        qkv = torch.cat([qkv_c, qkv_x], dim=1).view(B, Lc + Lx, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        key_keep = torch.cat([context_mask, context_mask.new_ones(B, Lx)], dim=1).to(x.dtype)
        out = joint_attention(qkv[0], qkv[1], qkv[2], key_keep).transpose(1, 2).reshape(B, Lc + Lx, D)
        return self.context.post(context, out[:, :Lc], mods_c), self.x.post(x, out[:, Lc:], mods_x)


class TinyMMDiT(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, patch_dim=16, text_dim=24):
        super().__init__()
        self.x_embed = nn.Linear(patch_dim, dim)
        self.pos = nn.Parameter(torch.randn(1, 9, dim) * 0.02)
        self.context_embed = nn.Linear(text_dim, dim)
        self.t_embed = nn.Sequential(nn.Linear(1, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList(MMDiTBlock(dim, heads) for _ in range(depth))
        self.final = nn.Linear(dim, patch_dim)

    def forward(self, latents, t, text_states, text_mask):
        x = self.x_embed(latents) + self.pos
        context = self.context_embed(text_states)
        c = self.t_embed(t[:, None])
        for blk in self.blocks:
            context, x = blk(context, x, c, text_mask)
        return self.final(x)


def build():
    torch.manual_seed(0)
    model = TinyMMDiT().eval()
    latents = torch.randn(3, 9, 16)
    t = torch.tensor([0.1, 0.5, 0.9])
    text_mask = (torch.arange(8)[None] < torch.tensor([8, 5, 3])[:, None]).long()
    text_states = torch.randn(3, 8, 24)
    return model, (latents, t, text_states, text_mask)
