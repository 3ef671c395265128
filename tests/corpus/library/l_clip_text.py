"""transformers.CLIPTextModel from a tiny random configuration (right padding): a library model, correct."""

import torch
import transformers


def build():
    transformers.utils.logging.set_verbosity_error()
    torch.manual_seed(0)
    model = transformers.CLIPTextModel(transformers.CLIPTextConfig(hidden_size=32, num_attention_heads=4, intermediate_size=64, num_hidden_layers=2, vocab_size=99, max_position_embeddings=32, attn_implementation='eager')).eval()
    ids = torch.randint(5, 99, (2, 7))
    mask = torch.ones(2, 7, dtype=torch.long)
    mask[1, -3:] = 0
    ids[1, -3:] = 0
    return model, (), {"input_ids": ids, "attention_mask": mask}
