import torch
from transformers import LlamaConfig, LlamaForCausalLM


def build():
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=80,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
    )
    model = LlamaForCausalLM(config).eval()
    input_ids = torch.randint(1, 80, (2, 10))
    attention_mask = torch.ones(2, 10, dtype=torch.long)
    attention_mask[0, :2] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    return model, (input_ids,), {"attention_mask": attention_mask}
