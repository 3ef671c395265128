import torch
from transformers import BertConfig, BertModel


def build():
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=60,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=32,
        type_vocab_size=2,
    )
    model = BertModel(config).eval()
    input_ids = torch.randint(1, 60, (3, 9))
    attention_mask = torch.ones(3, 9, dtype=torch.long)
    attention_mask[0, 6:] = 0
    attention_mask[2, 4:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    token_type_ids = torch.zeros_like(input_ids)
    return model, (input_ids,), {"attention_mask": attention_mask, "token_type_ids": token_type_ids}
