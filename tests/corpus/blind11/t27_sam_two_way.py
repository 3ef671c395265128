"""SAM-style mask decoder: a two-way transformer between prompt tokens and image embeddings."""
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads, downsample=1):
        super().__init__()
        self.h, inner = heads, dim // downsample
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(dim, inner), nn.Linear(dim, inner), nn.Linear(dim, inner)
        self.out_proj = nn.Linear(inner, dim)

    def _separate_heads(self, x):
        b, n, c = x.shape
        return x.reshape(b, n, self.h, c // self.h).transpose(1, 2)

    def forward(self, q, k, v):
        q, k, v = self._separate_heads(self.q_proj(q)), self._separate_heads(self.k_proj(k)), self._separate_heads(self.v_proj(v))
        attn = (q @ k.permute(0, 1, 3, 2)) / q.shape[-1] ** 0.5
        out = torch.softmax(attn, dim=-1) @ v
        b, h, n, c = out.shape
        return self.out_proj(out.transpose(1, 2).reshape(b, n, h * c))


class TwoWayAttentionBlock(nn.Module):
    def __init__(self, dim, heads, skip_first_layer_pe=False):
        super().__init__()
        self.self_attn = Attention(dim, heads)
        self.cross_attn_token_to_image = Attention(dim, heads, downsample=2)
        self.cross_attn_image_to_token = Attention(dim, heads, downsample=2)
        self.norm1, self.norm2, self.norm3, self.norm4 = (nn.LayerNorm(dim) for _ in range(4))
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))
        self.skip_first_layer_pe = skip_first_layer_pe

    def forward(self, queries, keys, query_pe, key_pe):
        if self.skip_first_layer_pe:
            queries = self.self_attn(queries, queries, queries)
        else:
            q = queries + query_pe
            queries = queries + self.self_attn(q, q, queries)
        queries = self.norm1(queries)
        q, k = queries + query_pe, keys + key_pe
        queries = self.norm2(queries + self.cross_attn_token_to_image(q, k, keys))
        queries = self.norm3(queries + self.mlp(queries))
        q, k = queries + query_pe, keys + key_pe
        keys = self.norm4(keys + self.cross_attn_image_to_token(k, q, queries))
        return queries, keys


class TinyMaskDecoder(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, num_mask_tokens=3):
        super().__init__()
        self.iou_token = nn.Embedding(1, dim)
        self.mask_tokens = nn.Embedding(num_mask_tokens, dim)
        self.layers = nn.ModuleList(TwoWayAttentionBlock(dim, heads, skip_first_layer_pe=i == 0) for i in range(depth))
        self.final_attn_token_to_image = Attention(dim, heads, downsample=2)
        self.norm_final = nn.LayerNorm(dim)
        self.hyper = nn.Linear(dim, dim)

    def forward(self, image_embedding, image_pe, sparse_prompt_embeddings):
        b = image_embedding.size(0)
        tokens = torch.cat([self.iou_token.weight, self.mask_tokens.weight])[None].expand(b, -1, -1)
        tokens = torch.cat([tokens, sparse_prompt_embeddings], dim=1)
        keys = image_embedding.flatten(2).permute(0, 2, 1)
        key_pe = image_pe.flatten(2).permute(0, 2, 1)
        queries = tokens
        for layer in self.layers:
            queries, keys = layer(queries, keys, tokens, key_pe)
        queries = self.norm_final(queries + self.final_attn_token_to_image(queries + tokens, keys + key_pe, keys))
        mask_tokens_out = self.hyper(queries[:, 1:4])
        masks = mask_tokens_out @ keys.transpose(1, 2)
        h, w = image_embedding.shape[-2:]
        return masks.view(b, -1, h, w), queries[:, 0]


def build():
    torch.manual_seed(0)
    image_embedding = torch.randn(2, 32, 4, 4)
    image_pe = torch.randn(1, 32, 4, 4).expand(2, -1, -1, -1)
    prompts = torch.randn(2, 2, 32)
    return TinyMaskDecoder().eval(), (image_embedding, image_pe, prompts)
