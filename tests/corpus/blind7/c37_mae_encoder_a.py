import torch
import torch.nn as nn


class MAEEncoder(nn.Module):
    def __init__(self, img=16, patch=4, in_ch=3, d=32, heads=4, depth=2, mask_ratio=0.75):
        super().__init__()
        self.mask_ratio = mask_ratio
        self.patch_embed = nn.Conv2d(in_ch, d, patch, stride=patch)
        self.num_patches = (img // patch) ** 2
        self.cls_token = nn.Parameter(torch.randn(1, 1, d) * 0.02)
        self.pos_embed = nn.Parameter(torch.randn(1, 1 + self.num_patches, d) * 0.02)
        self.blocks = nn.ModuleList(
            [nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True, norm_first=True) for _ in range(depth)]
        )
        self.norm = nn.LayerNorm(d)

    def random_masking(self, x):
        B, L, D = x.shape
        len_keep = int(L * (1 - self.mask_ratio))
        noise = torch.rand(B, L, device=x.device)
        ids_shuffle = torch.argsort(noise, dim=1)
        ids_restore = torch.argsort(ids_shuffle, dim=1)
        ids_keep = ids_shuffle[:, :len_keep]
        x_masked = torch.gather(x, 1, ids_keep.unsqueeze(-1).expand(-1, -1, D))
        mask = torch.ones(B, L, device=x.device)
        mask[:, :len_keep] = 0
        mask = torch.gather(mask, 1, ids_restore)
        return x_masked, mask, ids_restore

    def forward(self, imgs):
        x = self.patch_embed(imgs).flatten(2).transpose(1, 2)
        x = x + self.pos_embed[:, 1:]
        x, mask, ids_restore = self.random_masking(x)
        cls = (self.cls_token + self.pos_embed[:, :1]).expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1)
        for blk in self.blocks:
            x = blk(x)
        return self.norm(x), mask, ids_restore


def build():
    torch.manual_seed(0)
    model = MAEEncoder().eval()
    imgs = torch.randn(2, 3, 16, 16)
    return model, (imgs,)
