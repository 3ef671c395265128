"""IP-Adapter-Plus style block: a small resampler turns CLIP patch features into image-prompt
tokens; decoupled cross-attention reads text and image prompt with separate key/value weights.
The text prompt is padded and masked."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PromptResampler(nn.Module):
    def __init__(self, clip_dim=40, dim=24, num_queries=4, heads=4):
        super().__init__()
        self.queries = nn.Parameter(torch.randn(1, num_queries, dim) * dim ** -0.5)
        self.proj_in = nn.Linear(clip_dim, dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm = nn.LayerNorm(dim)

    def forward(self, clip_patches):
        kv = self.proj_in(clip_patches)
        q = self.queries.expand(kv.size(0), -1, -1)
        return self.norm(q + self.attn(q, kv, kv, need_weights=False)[0])


class DecoupledCrossAttention(nn.Module):
    def __init__(self, dim=32, ctx_dim=24, heads=4, scale=1.0, dropout=0.1):
        super().__init__()
        self.heads, self.scale, self.dropout = heads, scale, dropout
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(ctx_dim, 2 * dim, bias=False)
        self.to_kv_ip = nn.Linear(ctx_dim, 2 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def _sdpa(self, q, ctx, proj, mask=None):
        B, N, _ = ctx.shape
        k, v = proj(ctx).view(B, N, 2, self.heads, -1).permute(2, 0, 3, 1, 4)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=self.dropout if self.training else 0.0)

    def forward(self, x, text, text_mask, ip_tokens):
        B, L, D = x.shape
        q = self.to_q(x).view(B, L, self.heads, -1).transpose(1, 2)
        out = self._sdpa(q, text, self.to_kv, text_mask[:, None, None, :].bool())
        out = out + self.scale * self._sdpa(q, ip_tokens, self.to_kv_ip)
        return self.to_out(out.transpose(1, 2).reshape(B, L, D))


class IPAdapterPlusBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.resampler = PromptResampler()
        self.norm = nn.LayerNorm(dim)
        self.xattn = DecoupledCrossAttention(dim, scale=0.6)

    def forward(self, hidden_states, text_states, text_mask, clip_patches):
        ip_tokens = self.resampler(clip_patches)
        return hidden_states + self.xattn(self.norm(hidden_states), text_states, text_mask, ip_tokens)


def build():
    torch.manual_seed(0)
    model = IPAdapterPlusBlock().eval()
    hidden_states = torch.randn(3, 16, 32)
    text_mask = (torch.arange(8)[None] < torch.tensor([8, 5, 3])[:, None]).long()  # 1 = real token
    text_states = torch.randn(3, 8, 24)
    clip_patches = torch.randn(3, 10, 40)
    return model, (hidden_states, text_states, text_mask, clip_patches)
