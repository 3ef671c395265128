import torch
import torch.nn as nn
import torch.nn.functional as F


class ViTWithRegisters(nn.Module):
    def __init__(self, img=16, patch=4, dim=32, depth=2, heads=4, num_registers=4, n_cls=10):
        super().__init__()
        n_patches = (img // patch) ** 2
        self.to_patch = nn.Conv2d(3, dim, patch, patch)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.register_tokens = nn.Parameter(torch.randn(1, num_registers, dim) * 0.02)
        self.pos_embed = nn.Parameter(torch.randn(1, n_patches + 1, dim) * 0.02)  # registers get no position
        self.num_registers = num_registers
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, 0.1, activation="gelu", batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_cls)

    def forward(self, images):
        B = images.size(0)
        x = self.to_patch(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(B, -1, -1), x], dim=1) + self.pos_embed
        x = torch.cat([x[:, :1], self.register_tokens.expand(B, -1, -1), x[:, 1:]], dim=1)
        x = self.norm(self.blocks(x))
        cls, patches = x[:, 0], x[:, 1 + self.num_registers:]  # registers are discarded
        return self.head(cls), patches


def build():
    torch.manual_seed(0)
    return ViTWithRegisters().eval(), (torch.randn(2, 3, 16, 16),)
