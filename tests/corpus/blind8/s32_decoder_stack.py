import torch
import torch.nn as nn


class TransformerDecoderLayer(nn.Module):
    def __init__(self, d_model=32, nhead=4, dim_ff=64, dropout=0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(d_model, dim_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(dim_ff, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, tgt, memory, tgt_mask, memory_key_padding_mask):
        x = tgt
        sa, _ = self.self_attn(x, x, x, attn_mask=tgt_mask, need_weights=False)
        x = self.norm1(x + self.dropout(sa))
        ca, _ = self.cross_attn(x, memory, memory, key_padding_mask=memory_key_padding_mask, need_weights=False)
        x = self.norm2(memory + self.dropout(ca))
        x = self.norm3(x + self.dropout(self.ffn(x)))
        return x


class Decoder(nn.Module):
    def __init__(self, d_model=32, n_layers=2):
        super().__init__()
        self.layers = nn.ModuleList([TransformerDecoderLayer(d_model) for _ in range(n_layers)])

    def forward(self, tgt, memory, memory_key_padding_mask):
        T = tgt.size(1)
        tgt_mask = torch.triu(torch.full((T, T), float("-inf")), diagonal=1)
        x = tgt
        for layer in self.layers:
            x = layer(x, memory, tgt_mask, memory_key_padding_mask)
        return x


def build():
    torch.manual_seed(0)
    model = Decoder().eval()
    tgt = torch.randn(2, 6, 32)
    memory = torch.randn(2, 6, 32)
    memory_key_padding_mask = torch.tensor([[False] * 6, [False, False, False, False, True, True]])
    return model, (tgt, memory, memory_key_padding_mask)
