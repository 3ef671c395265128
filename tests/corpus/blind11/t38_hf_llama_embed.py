"""Text embedding model on a tiny random LlamaModel (e5-mistral style), right-padded batches, mean pooling."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import LlamaConfig, LlamaModel


class LlamaEmbedder(nn.Module):
    def __init__(self):
        super().__init__()
        config = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                             num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=32,
                             pad_token_id=0, bos_token_id=1, eos_token_id=2, attn_implementation="sdpa")
        self.model = LlamaModel(config)

    def forward(self, input_ids, attention_mask):
        hidden = self.model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        embeddings = hidden.mean(dim=1)
        return F.normalize(embeddings, p=2, dim=-1)


def build():
    torch.manual_seed(0)
    lens = torch.tensor([10, 6, 3])
    attention_mask = (torch.arange(10)[None] < lens[:, None]).long()
    input_ids = torch.randint(3, 64, (3, 10)) * attention_mask
    return LlamaEmbedder().eval(), (input_ids, attention_mask)
