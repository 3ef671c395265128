"""transformers.BartModel from a tiny random configuration (right padding): a library model, correct."""

import torch
import transformers


def build():
    transformers.utils.logging.set_verbosity_error()
    torch.manual_seed(0)
    model = transformers.BartModel(transformers.BartConfig(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64, vocab_size=99, max_position_embeddings=32, attn_implementation='eager')).eval()
    ids = torch.randint(5, 99, (2, 7))
    mask = torch.ones(2, 7, dtype=torch.long)
    mask[1, -3:] = 0
    ids[1, -3:] = 0
    return model, (), {"input_ids": ids, "attention_mask": mask}
