import torch
from transformers import ViTConfig, ViTForImageClassification


def build():
    torch.manual_seed(0)
    config = ViTConfig(
        image_size=16,
        patch_size=4,
        num_channels=3,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        num_labels=5,
    )
    model = ViTForImageClassification(config).eval()
    pixel_values = torch.randn(2, 3, 16, 16)
    return model, (pixel_values,)
