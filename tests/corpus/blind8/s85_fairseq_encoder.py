import torch
import torch.nn as nn
import torch.nn.functional as F


class FairseqStyleAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def _shape(self, t, bsz, seq):
        return t.view(bsz, seq, self.num_heads, self.head_dim).transpose(1, 2).reshape(bsz * self.num_heads, seq, self.head_dim)

    def forward(self, hidden, key_padding_mask):
        bsz, tgt_len, _ = hidden.size()
        q = self.q_proj(hidden) * self.scaling
        q = self._shape(q, bsz, tgt_len)
        k = self._shape(self.k_proj(hidden), bsz, tgt_len)
        v = self._shape(self.v_proj(hidden), bsz, tgt_len)
        w = torch.bmm(q, k.transpose(1, 2))
        w = w.view(bsz, self.num_heads, tgt_len, tgt_len)
        w = w.masked_fill(key_padding_mask[:, None, None, :].to(torch.bool), float("-inf"))
        w = F.softmax(w.view(bsz * self.num_heads, tgt_len, tgt_len), dim=-1)
        o = torch.bmm(w, v)
        o = o.view(bsz, self.num_heads, tgt_len, self.head_dim).transpose(1, 2).reshape(bsz, tgt_len, self.embed_dim)
        return self.out_proj(o)


class EncoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.self_attn = FairseqStyleAttention(d, h)
        self.self_attn_layer_norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)
        self.final_layer_norm = nn.LayerNorm(d)

    def forward(self, x, key_padding_mask):
        residual = x
        x = self.self_attn_layer_norm(x)
        x = residual + self.self_attn(x, key_padding_mask)
        residual = x
        x = self.fc2(F.relu(self.fc1(self.final_layer_norm(x))))
        return residual + x


class Encoder(nn.Module):
    def __init__(self, vocab=50, d=32, h=4, padding_idx=1):
        super().__init__()
        self.padding_idx = padding_idx
        self.embed_tokens = nn.Embedding(vocab, d, padding_idx=padding_idx)
        self.embed_positions = nn.Embedding(20, d)
        self.layers = nn.ModuleList([EncoderLayer(d, h) for _ in range(2)])
        self.layer_norm = nn.LayerNorm(d)

    def forward(self, src_tokens):
        pad = src_tokens.eq(self.padding_idx)
        x = self.embed_tokens(src_tokens) + self.embed_positions(torch.arange(src_tokens.size(1)))
        for layer in self.layers:
            x = layer(x, pad)
        return self.layer_norm(x)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    src_tokens = torch.tensor([[0, 14, 27, 33, 9, 2, 1, 1],
                               [0, 41, 6, 2, 1, 1, 1, 1],
                               [0, 8, 12, 15, 18, 22, 30, 2]])
    return model, (src_tokens,)
