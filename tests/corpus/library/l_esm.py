"""transformers.EsmModel from a tiny random configuration (right padding with pad id 1): a library model, correct."""

import torch
import transformers


def build():
    transformers.utils.logging.set_verbosity_error()
    torch.manual_seed(0)
    model = transformers.EsmModel(transformers.EsmConfig(hidden_size=32, num_attention_heads=4, intermediate_size=64, num_hidden_layers=2, vocab_size=33, max_position_embeddings=64, pad_token_id=1, mask_token_id=32, position_embedding_type='rotary', attn_implementation='eager')).eval()
    ids = torch.randint(5, 33, (2, 7))
    mask = torch.ones(2, 7, dtype=torch.long)
    mask[1, -3:] = 0
    ids[1, -3:] = 1
    return model, (), {"input_ids": ids, "attention_mask": mask}
