"""Decoder layer stack with causal self-attention and cross-attention to a padded encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, dim, enc_dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(enc_dim, dim)
        self.v_proj = nn.Linear(enc_dim, dim)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, hidden_states, encoder_hidden_states, encoder_attention_mask):
        B, T, C = hidden_states.shape
        S = encoder_hidden_states.shape[1]
        q = self.q_proj(hidden_states).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(encoder_hidden_states).view(B, S, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(encoder_hidden_states).view(B, S, self.n_heads, self.head_dim).transpose(1, 2)
        # (B, S) with 1 for real encoder frames -> additive (B, 1, 1, S)
        bias = (1.0 - encoder_attention_mask[:, None, None, :].to(q.dtype)) * torch.finfo(q.dtype).min
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.out_proj(out.transpose(1, 2).reshape(B, T, C))


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out_proj(out.transpose(1, 2).reshape(B, T, C))


class DecoderLayer(nn.Module):
    def __init__(self, dim, enc_dim, n_heads):
        super().__init__()
        self.self_attn_layer_norm = nn.LayerNorm(dim)
        self.self_attn = CausalSelfAttention(dim, n_heads)
        self.encoder_attn_layer_norm = nn.LayerNorm(dim)
        self.encoder_attn = CrossAttention(dim, enc_dim, n_heads)
        self.final_layer_norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)

    def forward(self, x, encoder_hidden_states, encoder_attention_mask):
        x = x + self.self_attn(self.self_attn_layer_norm(x))
        x = x + self.encoder_attn(self.encoder_attn_layer_norm(x), encoder_hidden_states, encoder_attention_mask)
        return x + self.fc2(F.gelu(self.fc1(self.final_layer_norm(x))))


class CrossAttnDecoder(nn.Module):
    def __init__(self, dim=32, enc_dim=24, n_heads=4, n_layers=2):
        super().__init__()
        self.layers = nn.ModuleList(DecoderLayer(dim, enc_dim, n_heads) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)

    def forward(self, hidden_states, encoder_hidden_states, encoder_attention_mask):
        for layer in self.layers:
            hidden_states = layer(hidden_states, encoder_hidden_states, encoder_attention_mask)
        return self.norm(hidden_states)


def build():
    torch.manual_seed(0)
    model = CrossAttnDecoder().eval()
    hidden_states = torch.randn(2, 7, 32)
    encoder_hidden_states = torch.randn(2, 10, 24)
    encoder_attention_mask = (torch.arange(10)[None, :] < torch.tensor([6, 10])[:, None]).long()
    return model, (hidden_states,), {
        "encoder_hidden_states": encoder_hidden_states,
        "encoder_attention_mask": encoder_attention_mask,
    }
