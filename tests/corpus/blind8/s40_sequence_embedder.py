import torch
import torch.nn as nn


class Seq2Vec(nn.Module):
    def __init__(self, vocab=40, d_model=32, nhead=4, layers=2, max_len=16, out_dim=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        enc_layer = nn.TransformerEncoderLayer(d_model=d_model, nhead=nhead, dim_feedforward=64, dropout=0.0)
        self.encoder = nn.TransformerEncoder(enc_layer, num_layers=layers, enable_nested_tensor=False)
        self.proj = nn.Linear(d_model, out_dim)

    def forward(self, x):
        B, T = x.shape
        h = self.emb(x) + self.pos(torch.arange(T, device=x.device))
        h = h.view(T, B, -1)
        h = self.encoder(h)
        h = h.transpose(0, 1)
        return self.proj(h.mean(dim=1))


def build():
    torch.manual_seed(0)
    model = Seq2Vec().eval()
    x = torch.randint(0, 40, (3, 6))
    return model, (x,)
