"""Image classifier on a DeiT backbone (HF transformers, tiny random config) with a distillation token.

DeiT prepends a [CLS] and a [DIST] token; at inference the class head on [CLS] and the
distillation head on [DIST] are averaged (Touvron et al. 2021). Patch tokens are not used.
"""
import torch
import torch.nn as nn
from transformers import DeiTConfig, DeiTModel


class DistilledDeiT(nn.Module):
    def __init__(self, config, num_labels=10):
        super().__init__()
        self.deit = DeiTModel(config, add_pooling_layer=False)
        self.cls_head = nn.Linear(config.hidden_size, num_labels)
        self.dist_head = nn.Linear(config.hidden_size, num_labels)

    def forward(self, pixel_values):
        seq = self.deit(pixel_values=pixel_values).last_hidden_state
        return (self.cls_head(seq[:, 0]) + self.dist_head(seq[:, 1])) / 2


def build():
    torch.manual_seed(0)
    config = DeiTConfig(image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=64, hidden_dropout_prob=0.1,
                        attention_probs_dropout_prob=0.1)
    model = DistilledDeiT(config).eval()
    pixels = torch.randn(3, 3, 32, 32)
    return model, (pixels,)
