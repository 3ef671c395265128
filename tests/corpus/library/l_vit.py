"""transformers.ViTModel from a tiny random configuration (a batch of two images): a library model, correct."""

import torch
import transformers


def build():
    transformers.utils.logging.set_verbosity_error()
    torch.manual_seed(0)
    model = transformers.ViTModel(transformers.ViTConfig(hidden_size=32, num_attention_heads=4, intermediate_size=64, num_hidden_layers=2, image_size=32, patch_size=8, attn_implementation='eager')).eval()
    return model, (), {"pixel_values": torch.randn(2, 3, 32, 32)}
