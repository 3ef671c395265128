"""Language identification on top of a Marian encoder with additive attention pooling.

A single learned query scores each encoder state; the pooled vector is the attention-weighted
sum of the states of each sentence (Lin et al. 2017 style structured self-attention, 1 hop).
"""
import torch
import torch.nn as nn
from transformers import MarianConfig, MarianModel


class AttentivePooling(nn.Module):
    def __init__(self, dim, hidden=16):
        super().__init__()
        self.proj = nn.Linear(dim, hidden)
        self.score = nn.Linear(hidden, 1, bias=False)

    def forward(self, states, mask):
        e = self.score(torch.tanh(self.proj(states))).squeeze(-1)          # (B, T)
        e = e.masked_fill(mask == 0, torch.finfo(e.dtype).min)
        alpha = torch.softmax(e, 0)
        return torch.einsum("bt,btd->bd", alpha, states)


class LangIdClassifier(nn.Module):
    def __init__(self, config, num_languages=7):
        super().__init__()
        self.encoder = MarianModel(config).get_encoder()
        self.pool = AttentivePooling(config.d_model)
        self.out = nn.Linear(config.d_model, num_languages)

    def forward(self, input_ids, attention_mask):
        states = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.out(self.pool(states, attention_mask))


def build():
    torch.manual_seed(0)
    config = MarianConfig(vocab_size=90, d_model=32, encoder_layers=2, decoder_layers=1,
                          encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
                          decoder_ffn_dim=64, max_position_embeddings=64, pad_token_id=0,
                          decoder_start_token_id=0)
    model = LangIdClassifier(config).eval()
    lengths = torch.tensor([11, 15, 6])
    attention_mask = (torch.arange(15)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(2, 90, (3, 15)).masked_fill(attention_mask == 0, 0)
    return model, (input_ids, attention_mask)
