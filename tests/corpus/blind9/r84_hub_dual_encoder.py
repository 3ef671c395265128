import torch
from transformers import CLIPConfig, CLIPModel


def build():
    torch.manual_seed(0)
    config = CLIPConfig(
        text_config=dict(
            vocab_size=60,
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            max_position_embeddings=16,
            bos_token_id=1,
            eos_token_id=59,
            pad_token_id=0,
        ),
        vision_config=dict(
            image_size=16,
            patch_size=4,
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
        ),
        projection_dim=16,
    )
    model = CLIPModel(config).eval()
    input_ids = torch.randint(1, 58, (3, 8))
    attention_mask = torch.ones(3, 8, dtype=torch.long)
    input_ids[0, 5] = 59
    attention_mask[0, 6:] = 0
    input_ids[1, 7] = 59
    input_ids[2, 3] = 59
    attention_mask[2, 4:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    pixel_values = torch.randn(3, 3, 16, 16)
    return model, (), {"input_ids": input_ids, "attention_mask": attention_mask, "pixel_values": pixel_values}
