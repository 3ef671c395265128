import torch
import torch.nn as nn
from transformers import ViTConfig, ViTModel


class ViTProbe(nn.Module):
    def __init__(self, config, n_cls=6):
        super().__init__()
        self.vit = ViTModel(config, add_pooling_layer=False)
        self.norm = nn.LayerNorm(config.hidden_size)
        self.head = nn.Linear(2 * config.hidden_size, n_cls)

    def forward(self, pixel_values):
        h = self.vit(pixel_values=pixel_values).last_hidden_state
        cls, patches = h[:, 0], h[:, 1:]
        feats = torch.cat([cls, patches.mean(dim=1)], dim=-1)  # no padding in images: plain mean is fine
        return self.head(feats)


def build():
    torch.manual_seed(0)
    cfg = ViTConfig(image_size=16, patch_size=4, num_channels=3, hidden_size=32, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=64)
    model = ViTProbe(cfg).eval()
    return model, (torch.randn(2, 3, 16, 16),)
