"""Image classifier on a tiny random ViTModel: CLS token and mean of patch tokens concatenated."""
import torch
import torch.nn as nn
from transformers import ViTConfig, ViTModel


class ViTClassifier(nn.Module):
    def __init__(self, num_labels=4):
        super().__init__()
        config = ViTConfig(image_size=16, patch_size=4, num_channels=3, hidden_size=32, num_hidden_layers=2,
                           num_attention_heads=4, intermediate_size=64, hidden_dropout_prob=0.0,
                           attention_probs_dropout_prob=0.0)
        self.vit = ViTModel(config, add_pooling_layer=False)
        self.classifier = nn.Linear(2 * config.hidden_size, num_labels)

    def forward(self, pixel_values):
        hidden = self.vit(pixel_values=pixel_values).last_hidden_state
        feats = torch.cat([hidden[:, 0], hidden[:, 1:].mean(dim=1)], dim=-1)
        return self.classifier(feats)


def build():
    torch.manual_seed(0)
    return ViTClassifier().eval(), (torch.randn(3, 3, 16, 16),)
