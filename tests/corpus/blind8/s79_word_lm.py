import math
import torch
import torch.nn as nn


class TransformerModel(nn.Module):
    def __init__(self, ntoken=40, d_model=32, nhead=4, d_hid=64, nlayers=2, dropout=0.2):
        super().__init__()
        self.model_type = "Transformer"
        self.pos_encoder = nn.Embedding(64, d_model)
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)

    def forward(self, src):
        seq_len = src.size(0)
        src_mask = nn.Transformer.generate_square_subsequent_mask(seq_len, device=src.device)
        positions = torch.arange(seq_len, device=src.device).unsqueeze(1)
        x = self.embedding(src) * math.sqrt(self.d_model) + self.pos_encoder(positions)
        output = self.transformer_encoder(x, src_mask, is_causal=True)
        return self.linear(output)


def build():
    torch.manual_seed(0)
    model = TransformerModel().eval()
    src = torch.randint(0, 40, (9, 3))
    return model, (src,)
