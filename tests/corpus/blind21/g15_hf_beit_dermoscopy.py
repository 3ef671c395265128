"""Skin-lesion classification from dermoscopy crops: BEiT backbone + patient metadata.

Images arrive as uint8 RGB. Dermatoscopes differ in illumination, so crops are colour-corrected
with Shades of Gray before the usual mean/std normalisation (as in most ISIC challenge pipelines).
"""
import torch
import torch.nn as nn
from transformers import BeitConfig, BeitModel

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
CLASSES = ["nevus", "melanoma", "bcc", "akiec", "bkl", "df", "vasc"]


def shades_of_gray(x, p=6, eps=1e-6):
    """Finlayson & Trezzi colour constancy: estimate the illuminant with a Minkowski p-norm"""
    illum = x.pow(p).mean(dim=(0, 2, 3), keepdim=True).pow(1.0 / p)
    illum = illum / (illum.norm(dim=1, keepdim=True) + eps) * 3 ** 0.5
    return (x / (illum + eps)).clamp(0.0, 1.0)


class LesionClassifier(nn.Module):
    def __init__(self, config: BeitConfig, n_sites=8):
        super().__init__()
        self.backbone = BeitModel(config, add_pooling_layer=True)      # mean-pooled patch tokens
        self.site = nn.Embedding(n_sites, 8)
        self.age = nn.Linear(1, 8)
        h = config.hidden_size
        self.head = nn.Sequential(nn.Linear(h + 16, h), nn.GELU(), nn.Dropout(0.2), nn.Linear(h, len(CLASSES)))

    def preprocess(self, images):
        x = shades_of_gray(images.float() / 255.0)
        return (x - MEAN.to(x.device)) / STD.to(x.device)

    def forward(self, images, age, site):
        feats = self.backbone(pixel_values=self.preprocess(images)).pooler_output
        meta = torch.cat([self.age(age.unsqueeze(-1) / 100.0), self.site(site)], dim=-1)
        return self.head(torch.cat([feats, meta], dim=-1))


def build():
    torch.manual_seed(0)
    config = BeitConfig(image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=64, use_relative_position_bias=True,
                        use_mean_pooling=True, layer_scale_init_value=0.1)
    model = LesionClassifier(config).eval()
    tint = torch.tensor([[1.0, 0.8, 0.7], [0.7, 0.9, 1.0], [0.9, 0.9, 0.9]]).view(3, 3, 1, 1)
    images = (torch.rand(3, 3, 32, 32) * 255 * tint).to(torch.uint8)
    age = torch.tensor([34.0, 61.0, 47.0])
    site = torch.tensor([2, 5, 0])
    return model, (images, age, site)
