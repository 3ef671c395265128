"""Denoiser step of a small latent text-to-image model with classifier-free guidance.

The conditional and unconditional branches run as one batch: latents are duplicated and the
padded prompt embeddings of the empty prompt and of the real prompt are stacked. Image
tokens read the prompt through cross-attention with a key padding mask.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossBlock(nn.Module):
    def __init__(self, d=32, d_txt=24, heads=4):
        super().__init__()
        self.h = heads
        self.n1, self.n2, self.n3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.sa_out = nn.Linear(d, d)
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d_txt, 2 * d)
        self.ca_out = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def heads(self, t):
        B, L, D = t.shape
        return t.view(B, L, self.h, D // self.h).transpose(1, 2)

    def merge(self, t):
        B, H, L, dh = t.shape
        return t.transpose(1, 2).reshape(B, L, H * dh)

    def forward(self, x, ctx, ctx_mask):
        q, k, v = self.qkv(self.n1(x)).chunk(3, dim=-1)
        x = x + self.sa_out(self.merge(F.scaled_dot_product_attention(self.heads(q), self.heads(k), self.heads(v))))
        k, v = self.kv(ctx).chunk(2, dim=-1)
        keep = ctx_mask.bool()[:, None, None, :]
        a = F.scaled_dot_product_attention(self.heads(self.q(self.n2(x))), self.heads(k), self.heads(v), attn_mask=keep)
        x = x + self.ca_out(self.merge(a))
        return x + self.ff(self.n3(x))


class GuidedDenoiser(nn.Module):
    def __init__(self, c_lat=4, d=32, vocab=60, d_txt=24, n_tokens=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_txt)
        self.txt_pos = nn.Embedding(16, d_txt)
        self.txt_norm = nn.LayerNorm(d_txt)
        self.patch_in = nn.Linear(c_lat, d)
        self.img_pos = nn.Parameter(torch.randn(1, n_tokens, d) * 0.1)
        self.t_emb = nn.Sequential(nn.Linear(1, d), nn.SiLU(), nn.Linear(d, d))
        self.blocks = nn.ModuleList(CrossBlock(d, d_txt) for _ in range(2))
        self.out = nn.Linear(d, c_lat)

    def encode_prompt(self, ids):
        S = ids.size(1)
        return self.txt_norm(self.tok(ids) + self.txt_pos(torch.arange(S, device=ids.device)))

    def forward(self, latents, t, cond_ids, cond_mask, uncond_ids, uncond_mask, guidance=5.0):
        B, C, Hh, Ww = latents.shape
        x = latents.flatten(2).transpose(1, 2)                       # (B, H*W, C)
        x = torch.cat([x, x])
        tt = torch.cat([t, t]).float().unsqueeze(-1)
        h = self.patch_in(x) + self.img_pos + self.t_emb(tt).unsqueeze(1)
        ctx = self.encode_prompt(torch.cat([uncond_ids, cond_ids]))
        ctx_mask = torch.cat([cond_mask, uncond_mask])
        for blk in self.blocks:
            h = blk(h, ctx, ctx_mask)
        eps = self.out(h)
        eps_uncond, eps_cond = eps.chunk(2)
        eps = eps_uncond + guidance * (eps_cond - eps_uncond)
        return eps.transpose(1, 2).reshape(B, C, Hh, Ww)


def build():
    torch.manual_seed(0)
    model = GuidedDenoiser().eval()
    B, S = 3, 8
    latents = torch.randn(B, 4, 4, 4)
    t = torch.tensor([500, 120, 900])
    cond_ids = torch.randint(3, 60, (B, S))
    cond_mask = torch.ones(B, S, dtype=torch.long)
    cond_mask[0, 6:] = 0
    cond_mask[1, 4:] = 0
    cond_mask[2, 7:] = 0
    cond_ids[cond_mask == 0] = 0
    uncond_ids = torch.zeros(B, S, dtype=torch.long)
    uncond_ids[:, 0], uncond_ids[:, 1] = 1, 2                      # <bos> <eos>
    uncond_mask = torch.zeros(B, S, dtype=torch.long)
    uncond_mask[:, :2] = 1
    return model, (latents, t, cond_ids, cond_mask, uncond_ids, uncond_mask)
