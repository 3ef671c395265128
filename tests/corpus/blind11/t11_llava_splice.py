"""LLaVA-style VLM: projected image patches scattered into the placeholder tokens of a left-padded prompt."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / base ** (torch.arange(0, dim, 2).float() / dim), persistent=False)

    def forward(self, position_ids):
        freqs = position_ids[..., None].float() * self.inv_freq
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos()[:, None], emb.sin()[:, None]  # (B, 1, T, d) broadcast over heads


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.input_layernorm = nn.RMSNorm(dim, eps=1e-6)
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (nn.Linear(dim, dim, bias=False) for _ in range(4))
        self.post_attention_layernorm = nn.RMSNorm(dim, eps=1e-6)
        self.gate_proj, self.up_proj = nn.Linear(dim, 2 * dim, bias=False), nn.Linear(dim, 2 * dim, bias=False)
        self.down_proj = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, x, cos, sin, bias):
        B, T, D = x.shape
        h = self.input_layernorm(x)
        q, k, v = (p(h).view(B, T, self.h, -1).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        x = x + self.o_proj(y.transpose(1, 2).reshape(B, T, D))
        h = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class TinyLlava(nn.Module):
    def __init__(self, vocab=48, dim=32, heads=4, layers=2, image_token_id=47, patch=4):
        super().__init__()
        self.image_token_id = image_token_id
        self.vision_tower = nn.Sequential(nn.Conv2d(3, 24, patch, stride=patch), nn.GELU())
        self.multi_modal_projector = nn.Sequential(nn.Linear(24, dim), nn.GELU(), nn.Linear(dim, dim))
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.rotary = RotaryEmbedding(dim // heads)
        self.layers = nn.ModuleList(DecoderLayer(dim, heads) for _ in range(layers))
        self.norm = nn.RMSNorm(dim, eps=1e-6)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, pixel_values, attention_mask):
        inputs_embeds = self.embed_tokens(input_ids)
        image_features = self.multi_modal_projector(self.vision_tower(pixel_values).flatten(2).transpose(1, 2))
        special_image_mask = (input_ids == self.image_token_id).unsqueeze(-1).expand_as(inputs_embeds)
        inputs_embeds = inputs_embeds.masked_scatter(special_image_mask, image_features.to(inputs_embeds.dtype))
        # left padding: positions count real tokens only
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        cos, sin = self.rotary(position_ids)
        T = input_ids.size(1)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        allowed = causal[None, None] & attention_mask.bool()[:, None, None, :]
        bias = torch.zeros(allowed.shape, dtype=inputs_embeds.dtype).masked_fill(~allowed, torch.finfo(inputs_embeds.dtype).min)
        x = inputs_embeds
        for layer in self.layers:
            x = layer(x, cos, sin, bias)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = TinyLlava().eval()
    B, T, n_img = 3, 14, 4
    lens = [14, 10, 8]
    input_ids = torch.zeros(B, T, dtype=torch.long)
    attention_mask = torch.zeros(B, T, dtype=torch.long)
    for b, n in enumerate(lens):
        start = T - n
        ids = torch.randint(1, 40, (n,))
        ids[1 : 1 + n_img] = model.image_token_id
        input_ids[b, start:], attention_mask[b, start:] = ids, 1
    pixel_values = torch.randn(B, 3, 8, 8)
    return model, (input_ids, pixel_values, attention_mask)
