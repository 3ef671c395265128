"""Multi-token prediction (Gloeckle et al., 2024): a shared trunk and one extra transformer
layer per future offset, all reading out through the shared unembedding.

The attention layers carry a learned bias key/value (fairseq's add_bias_kv), which acts as an
always-visible "null" slot for queries that want to attend to nothing.
"""
import torch
import torch.nn as nn


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, add_bias_kv=True, batch_first=True)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.SiLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, causal_mask):
        h = self.norm1(x)
        a, _ = self.attn(h, h, h, attn_mask=causal_mask, need_weights=False)
        x = x + a
        return x + self.ff(self.norm2(x))


class MultiTokenPredictor(nn.Module):
    def __init__(self, vocab=80, d_model=32, n_heads=4, trunk_layers=2, n_future=3, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.trunk = nn.ModuleList(DecoderLayer(d_model, n_heads) for _ in range(trunk_layers))
        self.heads = nn.ModuleList(DecoderLayer(d_model, n_heads) for _ in range(n_future))
        self.norm = nn.LayerNorm(d_model)
        self.unembed = nn.Linear(d_model, vocab, bias=False)

    def forward(self, tokens):
        B, T = tokens.shape
        causal_mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=tokens.device))
        h = self.embed(tokens) + self.pos(torch.arange(T, device=tokens.device))
        for layer in self.trunk:
            h = layer(h, causal_mask)
        # logits[:, :, k] predicts token t + k + 1
        outs = [self.unembed(self.norm(head(h, causal_mask))) for head in self.heads]
        return torch.stack(outs, dim=2)


def build():
    torch.manual_seed(0)
    model = MultiTokenPredictor().eval()
    tokens = torch.randint(0, 80, (2, 14))
    return model, (tokens,)
