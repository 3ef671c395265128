"""Masked autoencoder (He et al., 2022) forward pass with per-sample random masking.

Masking follows the reference implementation: per-sample noise is argsorted, the first
len_keep patches of the shuffle are kept, and the decoder puts mask tokens back and
unshuffles with the inverse permutation. The noise is an input so runs are reproducible.
"""
import torch
import torch.nn as nn


def patchify(imgs, p):
    B, C, H, W = imgs.shape
    x = imgs.reshape(B, C, H // p, p, W // p, p)
    return torch.einsum("nchpwq->nhwpqc", x).reshape(B, (H // p) * (W // p), p * p * C)


class MAE(nn.Module):
    def __init__(self, img=12, patch=4, dim=32, dec_dim=24, heads=4, mask_ratio=0.75):
        super().__init__()
        self.patch, self.mask_ratio = patch, mask_ratio
        n = (img // patch) ** 2
        self.patch_embed = nn.Linear(patch * patch * 3, dim)
        self.pos = nn.Parameter(torch.randn(1, n, dim) * 0.02)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True, norm_first=True), 2,
            enable_nested_tensor=False)
        self.enc_norm = nn.LayerNorm(dim)
        self.decoder_embed = nn.Linear(dim, dec_dim)
        self.mask_token = nn.Parameter(torch.randn(1, 1, dec_dim) * 0.02)
        self.dec_pos = nn.Parameter(torch.randn(1, n + 1, dec_dim) * 0.02)
        self.decoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dec_dim, heads, 2 * dec_dim, dropout=0.0, batch_first=True, norm_first=True), 1,
            enable_nested_tensor=False)
        self.dec_norm = nn.LayerNorm(dec_dim)
        self.pred = nn.Linear(dec_dim, patch * patch * 3)

    def random_masking(self, x, noise):
        N, L, D = x.shape
        len_keep = int(L * (1 - self.mask_ratio))
        ids_shuffle = torch.argsort(noise, dim=1)
        ids_restore = torch.argsort(ids_shuffle, dim=0)
        ids_keep = ids_shuffle[:, :len_keep]
        x_masked = torch.gather(x, 1, ids_keep[..., None].expand(-1, -1, D))
        mask = torch.ones(N, L, device=x.device)
        mask[:, :len_keep] = 0
        mask = torch.gather(mask, 1, ids_restore)
        return x_masked, mask, ids_restore

    def forward(self, imgs, noise):
        x = self.patch_embed(patchify(imgs, self.patch)) + self.pos
        x, mask, ids_restore = self.random_masking(x, noise)
        x = torch.cat([self.cls_token.expand(x.size(0), -1, -1), x], dim=1)
        latent = self.enc_norm(self.encoder(x))

        y = self.decoder_embed(latent)
        n_mask = ids_restore.size(1) + 1 - y.size(1)
        y_ = torch.cat([y[:, 1:], self.mask_token.expand(y.size(0), n_mask, -1)], dim=1)
        y_ = torch.gather(y_, 1, ids_restore[..., None].expand(-1, -1, y.size(2)))
        y = torch.cat([y[:, :1], y_], dim=1) + self.dec_pos
        y = self.dec_norm(self.decoder(y))
        return self.pred(y[:, 1:]), mask


def build():
    torch.manual_seed(30)
    model = MAE().eval()
    imgs = torch.randn(3, 3, 12, 12)
    noise = torch.rand(3, 9)
    return model, (imgs, noise)
