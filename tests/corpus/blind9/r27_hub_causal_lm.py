import torch
from transformers import GPT2Config, GPT2LMHeadModel


def build():
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=70, n_positions=32, n_embd=32, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0)
    model = GPT2LMHeadModel(config).eval()
    input_ids = torch.randint(0, 70, (2, 11))
    return model, (input_ids,)
